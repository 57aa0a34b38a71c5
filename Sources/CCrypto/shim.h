#ifndef BK_CRYPTO_SHIM_H
#define BK_CRYPTO_SHIM_H
/*
 * The few entry points of the system's libcrypto (OpenSSL 3 or 1.1) that CMS signing and
 * signature verification need,
 * loaded with dlopen on first use rather than linked.
 *
 * Signing and verifying are optional: a program that does neither must start, and run, on a
 * machine without libcrypto, and must not pay for loading it. So no OpenSSL header is needed to build either:
 * the types are opaque here and the prototypes are the documented, stable ones of OpenSSL's
 * public API. Swift calls the bk_crypto_* wrappers; bk_crypto_load_error() says why the library
 * could not be used (then no other wrapper may be called). bk_crypto_use_library() picks another
 * file, for tests and unusual installs, and must come before any other call.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "../CLibraryLoader/loader.h"

typedef struct bk_crypto_bio bk_crypto_bio;               /* BIO */
typedef struct bk_crypto_bio_method bk_crypto_bio_method; /* BIO_METHOD */
typedef struct bk_crypto_x509 bk_crypto_x509;             /* X509 */
typedef struct bk_crypto_pkey bk_crypto_pkey;             /* EVP_PKEY */
typedef struct bk_crypto_cipher bk_crypto_cipher;         /* EVP_CIPHER */
typedef struct bk_crypto_stack bk_crypto_stack;           /* OPENSSL_STACK, here always STACK_OF(X509) */
typedef struct bk_crypto_cms bk_crypto_cms;               /* CMS_ContentInfo */
typedef struct bk_crypto_pkcs12 bk_crypto_pkcs12;         /* PKCS12 */
typedef struct bk_crypto_provider bk_crypto_provider;     /* OSSL_PROVIDER (OpenSSL 3) */
typedef struct bk_crypto_libctx bk_crypto_libctx;         /* OSSL_LIB_CTX (OpenSSL 3) */
typedef struct bk_crypto_store bk_crypto_store;           /* X509_STORE */
typedef struct bk_crypto_store_ctx bk_crypto_store_ctx;   /* X509_STORE_CTX */
typedef struct bk_crypto_md bk_crypto_md;                 /* EVP_MD */
typedef struct bk_crypto_md_ctx bk_crypto_md_ctx;         /* EVP_MD_CTX */
typedef struct bk_crypto_engine bk_crypto_engine;         /* ENGINE */
typedef struct bk_crypto_pkey_ctx bk_crypto_pkey_ctx;     /* EVP_PKEY_CTX */
typedef int (*bk_crypto_password_cb)(char *buffer, int size, int writing, void *context);

/* CMS_sign flags (cms.h). */
#define BK_CMS_BINARY 0x80
#define BK_CMS_NOSMIMECAP 0x200
/* CMS_verify flag (cms.h): check the signatures only; the caller builds and judges the signer's chain. */
#define BK_CMS_NO_SIGNER_CERT_VERIFY 0x20
/* X509_VERIFY_PARAM flag (x509_vfy.h): ignore notBefore/notAfter throughout the chain. */
#define BK_X509_V_FLAG_NO_CHECK_TIME 0x200000
/* BIO_ctrl command behind BIO_get_mem_data (bio.h). */
#define BK_BIO_CTRL_INFO 3

typedef struct {
    const bk_crypto_bio_method *(*BIO_s_mem)(void);
    bk_crypto_bio *(*BIO_new)(const bk_crypto_bio_method *);
    long (*BIO_ctrl)(bk_crypto_bio *, int, long, void *);
    int (*BIO_write)(bk_crypto_bio *, const void *, int);
    int (*BIO_free)(bk_crypto_bio *);
    bk_crypto_x509 *(*PEM_read_bio_X509)(bk_crypto_bio *, bk_crypto_x509 **, bk_crypto_password_cb, void *);
    bk_crypto_x509 *(*d2i_X509_bio)(bk_crypto_bio *, bk_crypto_x509 **);
    int (*i2d_X509_bio)(bk_crypto_bio *, const bk_crypto_x509 *);
    int (*PEM_write_bio_X509)(bk_crypto_bio *, const bk_crypto_x509 *);
    void (*X509_free)(bk_crypto_x509 *);
    int (*X509_check_private_key)(const bk_crypto_x509 *, const bk_crypto_pkey *);
    bk_crypto_pkey *(*PEM_read_bio_PrivateKey)(bk_crypto_bio *, bk_crypto_pkey **, bk_crypto_password_cb, void *);
    int (*PEM_write_bio_PrivateKey)(bk_crypto_bio *, const bk_crypto_pkey *, const bk_crypto_cipher *, const unsigned char *, int,
                                    bk_crypto_password_cb, void *);
    void (*EVP_PKEY_free)(bk_crypto_pkey *);
    bk_crypto_pkcs12 *(*d2i_PKCS12_bio)(bk_crypto_bio *, bk_crypto_pkcs12 **);
    int (*PKCS12_parse)(bk_crypto_pkcs12 *, const char *, bk_crypto_pkey **, bk_crypto_x509 **, bk_crypto_stack **);
    void (*PKCS12_free)(bk_crypto_pkcs12 *);
    bk_crypto_stack *(*OPENSSL_sk_new_null)(void);
    int (*OPENSSL_sk_push)(bk_crypto_stack *, const void *);
    int (*OPENSSL_sk_num)(const bk_crypto_stack *);
    void *(*OPENSSL_sk_value)(const bk_crypto_stack *, int);
    void (*OPENSSL_sk_free)(bk_crypto_stack *);
    bk_crypto_cms *(*CMS_sign)(bk_crypto_x509 *, bk_crypto_pkey *, bk_crypto_stack *, bk_crypto_bio *, unsigned int);
    int (*i2d_CMS_bio)(bk_crypto_bio *, bk_crypto_cms *);
    void (*CMS_ContentInfo_free)(bk_crypto_cms *);
    unsigned long (*ERR_get_error)(void);
    void (*ERR_error_string_n)(unsigned long, char *, size_t);
    void (*ERR_clear_error)(void);
    bk_crypto_cms *(*d2i_CMS_bio)(bk_crypto_bio *, bk_crypto_cms **);
    int (*CMS_verify)(bk_crypto_cms *, bk_crypto_stack *, bk_crypto_store *, bk_crypto_bio *, bk_crypto_bio *, unsigned int);
    bk_crypto_stack *(*CMS_get0_signers)(bk_crypto_cms *);
    bk_crypto_stack *(*CMS_get1_certs)(bk_crypto_cms *);
    bk_crypto_store *(*X509_STORE_new)(void);
    void (*X509_STORE_free)(bk_crypto_store *);
    int (*X509_STORE_add_cert)(bk_crypto_store *, bk_crypto_x509 *);
    int (*X509_STORE_set_flags)(bk_crypto_store *, unsigned long);
    bk_crypto_store_ctx *(*X509_STORE_CTX_new)(void);
    void (*X509_STORE_CTX_free)(bk_crypto_store_ctx *);
    int (*X509_STORE_CTX_init)(bk_crypto_store_ctx *, bk_crypto_store *, bk_crypto_x509 *, bk_crypto_stack *);
    int (*X509_verify_cert)(bk_crypto_store_ctx *);
    int (*X509_STORE_CTX_get_error)(const bk_crypto_store_ctx *);
    bk_crypto_stack *(*X509_STORE_CTX_get1_chain)(const bk_crypto_store_ctx *);
    const char *(*X509_verify_cert_error_string)(long);
    /* Digest signatures (ES256 for JSON Web Tokens); OpenSSL 1.1.1 or later. */
    bk_crypto_md_ctx *(*EVP_MD_CTX_new)(void);
    void (*EVP_MD_CTX_free)(bk_crypto_md_ctx *);
    const bk_crypto_md *(*EVP_sha256)(void);
    int (*EVP_DigestSignInit)(bk_crypto_md_ctx *, bk_crypto_pkey_ctx **, const bk_crypto_md *, bk_crypto_engine *, bk_crypto_pkey *);
    int (*EVP_DigestSign)(bk_crypto_md_ctx *, unsigned char *, size_t *, const unsigned char *, size_t);
    /* OpenSSL 3 only, may be NULL: loads the legacy provider for old .p12 encryption (RC2, 3DES). */
    bk_crypto_provider *(*OSSL_PROVIDER_try_load)(bk_crypto_libctx *, const char *, int);
} bk_crypto_api;

typedef struct {
    bk_crypto_api api;
    bk_library_loader loader;
    pthread_once_t once;
} bk_crypto_loader;

/* Function-local, because Swift does not emit a header's file-scope statics. */
static inline bk_crypto_loader *bk_crypto_loader_state(void) {
    static bk_crypto_loader state = { .once = PTHREAD_ONCE_INIT };
    return &state;
}

/* Loads `path` instead of the system's libcrypto; only before the first other bk_crypto_ call. */
static inline void bk_crypto_use_library(const char *path) { bk_library_prefer(&bk_crypto_loader_state()->loader, path); }

/* The file names libcrypto is looked for under, NULL-terminated. */
static inline const char *const *bk_crypto_candidates(void) {
#if defined(__APPLE__)
    /* macOS's own /usr/lib/libcrypto.dylib aborts processes that load it: only Homebrew's. */
    static const char *const candidates[] = { "/opt/homebrew/opt/openssl@3/lib/libcrypto.3.dylib",
                                              "/usr/local/opt/openssl@3/lib/libcrypto.3.dylib",
                                              "/opt/local/lib/libcrypto.3.dylib", NULL };
#else
    static const char *const candidates[] = { "libcrypto.so.3", "libcrypto.so.1.1", NULL };
#endif
    return candidates;
}

static inline void bk_crypto_load(void) {
    bk_crypto_loader *state = bk_crypto_loader_state();
    bk_crypto_api *table = &state->api;
    void *library = bk_library_open(&state->loader, bk_crypto_candidates(), "the libcrypto library could not be loaded");
    if (library == NULL) return;
#define BK_CRYPTO_RESOLVE(name)                                                                   \
    table->name = (__typeof__(table->name))dlsym(library, #name);                                 \
    if (table->name == NULL) {                                                                    \
        state->loader.failure = #name " is missing from libcrypto; OpenSSL 1.1 or later is needed";      \
        return;                                                                                   \
    }
    BK_CRYPTO_RESOLVE(BIO_s_mem) BK_CRYPTO_RESOLVE(BIO_new)
    BK_CRYPTO_RESOLVE(BIO_ctrl) BK_CRYPTO_RESOLVE(BIO_write) BK_CRYPTO_RESOLVE(BIO_free) BK_CRYPTO_RESOLVE(PEM_read_bio_X509)
    BK_CRYPTO_RESOLVE(d2i_X509_bio) BK_CRYPTO_RESOLVE(i2d_X509_bio) BK_CRYPTO_RESOLVE(PEM_write_bio_X509)
    BK_CRYPTO_RESOLVE(X509_free) BK_CRYPTO_RESOLVE(X509_check_private_key) BK_CRYPTO_RESOLVE(PEM_read_bio_PrivateKey)
    BK_CRYPTO_RESOLVE(PEM_write_bio_PrivateKey) BK_CRYPTO_RESOLVE(EVP_PKEY_free) BK_CRYPTO_RESOLVE(d2i_PKCS12_bio)
    BK_CRYPTO_RESOLVE(PKCS12_parse) BK_CRYPTO_RESOLVE(PKCS12_free) BK_CRYPTO_RESOLVE(OPENSSL_sk_new_null)
    BK_CRYPTO_RESOLVE(OPENSSL_sk_push) BK_CRYPTO_RESOLVE(OPENSSL_sk_num) BK_CRYPTO_RESOLVE(OPENSSL_sk_value)
    BK_CRYPTO_RESOLVE(OPENSSL_sk_free) BK_CRYPTO_RESOLVE(CMS_sign) BK_CRYPTO_RESOLVE(i2d_CMS_bio)
    BK_CRYPTO_RESOLVE(CMS_ContentInfo_free) BK_CRYPTO_RESOLVE(ERR_get_error) BK_CRYPTO_RESOLVE(ERR_error_string_n)
    BK_CRYPTO_RESOLVE(ERR_clear_error) BK_CRYPTO_RESOLVE(d2i_CMS_bio) BK_CRYPTO_RESOLVE(CMS_verify)
    BK_CRYPTO_RESOLVE(CMS_get0_signers) BK_CRYPTO_RESOLVE(CMS_get1_certs) BK_CRYPTO_RESOLVE(X509_STORE_new)
    BK_CRYPTO_RESOLVE(X509_STORE_free) BK_CRYPTO_RESOLVE(X509_STORE_add_cert) BK_CRYPTO_RESOLVE(X509_STORE_set_flags)
    BK_CRYPTO_RESOLVE(X509_STORE_CTX_new) BK_CRYPTO_RESOLVE(X509_STORE_CTX_free) BK_CRYPTO_RESOLVE(X509_STORE_CTX_init)
    BK_CRYPTO_RESOLVE(X509_verify_cert) BK_CRYPTO_RESOLVE(X509_STORE_CTX_get_error) BK_CRYPTO_RESOLVE(X509_STORE_CTX_get1_chain)
    BK_CRYPTO_RESOLVE(X509_verify_cert_error_string)
    BK_CRYPTO_RESOLVE(EVP_MD_CTX_new) BK_CRYPTO_RESOLVE(EVP_MD_CTX_free)
    BK_CRYPTO_RESOLVE(EVP_sha256) BK_CRYPTO_RESOLVE(EVP_DigestSignInit) BK_CRYPTO_RESOLVE(EVP_DigestSign)
#undef BK_CRYPTO_RESOLVE
    table->OSSL_PROVIDER_try_load = (__typeof__(table->OSSL_PROVIDER_try_load))dlsym(library, "OSSL_PROVIDER_try_load");
}

/* The entry points; every wrapper makes sure they are loaded. */
static inline const bk_crypto_api *bk_crypto(void) {
    bk_crypto_loader *state = bk_crypto_loader_state();
    pthread_once(&state->once, bk_crypto_load);
    return &state->api;
}

/* Why libcrypto cannot be used, or NULL when it loaded. */
static inline const char *bk_crypto_load_error(void) {
    bk_crypto_loader *state = bk_crypto_loader_state();
    pthread_once(&state->once, bk_crypto_load);
    return state->loader.failure;
}

/* A passphrase callback that never prompts: it hands over the NUL-terminated `context`, or
   refuses when there is none (OpenSSL's default callback would read the terminal). */
static inline int bk_crypto_passphrase(char *buffer, int size, int writing, void *context) {
    (void)writing;
    if (context == NULL || size <= 0) return -1;
    size_t length = strlen((const char *)context);
    if (length > (size_t)size) return -1;
    memcpy(buffer, context, length);
    return (int)length;
}

/* A memory BIO holding its own copy of `bytes` (NULL when out of memory). */
static inline bk_crypto_bio *bk_crypto_bio_with(const void *bytes, int length) {
    bk_crypto_bio *bio = bk_crypto()->BIO_new(bk_crypto()->BIO_s_mem());
    if (bio == NULL) return NULL;
    if (length > 0 && bk_crypto()->BIO_write(bio, bytes, length) != length) {
        bk_crypto()->BIO_free(bio);
        return NULL;
    }
    return bio;
}
static inline bk_crypto_bio *bk_crypto_bio_memory(void) { return bk_crypto()->BIO_new(bk_crypto()->BIO_s_mem()); }
/* The bytes written to a memory BIO so far (valid until the BIO is written to or freed). */
static inline long bk_crypto_bio_contents(bk_crypto_bio *bio, const unsigned char **bytes) {
    return bk_crypto()->BIO_ctrl(bio, BK_BIO_CTRL_INFO, 0, (void *)bytes);
}
static inline void bk_crypto_bio_free(bk_crypto_bio *bio) { bk_crypto()->BIO_free(bio); }
static inline bk_crypto_x509 *bk_crypto_read_pem_certificate(bk_crypto_bio *bio) {
    return bk_crypto()->PEM_read_bio_X509(bio, NULL, bk_crypto_passphrase, NULL);
}
static inline bk_crypto_x509 *bk_crypto_read_der_certificate(bk_crypto_bio *bio) { return bk_crypto()->d2i_X509_bio(bio, NULL); }
static inline int bk_crypto_write_der_certificate(bk_crypto_bio *bio, const bk_crypto_x509 *certificate) {
    return bk_crypto()->i2d_X509_bio(bio, certificate);
}
static inline int bk_crypto_write_pem_certificate(bk_crypto_bio *bio, const bk_crypto_x509 *certificate) {
    return bk_crypto()->PEM_write_bio_X509(bio, certificate);
}
static inline void bk_crypto_certificate_free(bk_crypto_x509 *certificate) { bk_crypto()->X509_free(certificate); }
static inline int bk_crypto_key_matches(const bk_crypto_x509 *certificate, const bk_crypto_pkey *key) {
    return bk_crypto()->X509_check_private_key(certificate, key);
}
/* Reads a PEM private key, decrypting it with `passphrase` (NULL: only an unencrypted key). */
static inline bk_crypto_pkey *bk_crypto_read_pem_key(bk_crypto_bio *bio, const char *passphrase) {
    return bk_crypto()->PEM_read_bio_PrivateKey(bio, NULL, bk_crypto_passphrase, (void *)passphrase);
}
/* Writes the key unencrypted, as PKCS #8 PEM. */
static inline int bk_crypto_write_pem_key(bk_crypto_bio *bio, const bk_crypto_pkey *key) {
    return bk_crypto()->PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL);
}
static inline void bk_crypto_key_free(bk_crypto_pkey *key) { bk_crypto()->EVP_PKEY_free(key); }
static inline bk_crypto_pkcs12 *bk_crypto_read_pkcs12(bk_crypto_bio *bio) { return bk_crypto()->d2i_PKCS12_bio(bio, NULL); }
static inline int bk_crypto_parse_pkcs12(bk_crypto_pkcs12 *pkcs12, const char *password, bk_crypto_pkey **key,
                                         bk_crypto_x509 **certificate, bk_crypto_stack **chain) {
    return bk_crypto()->PKCS12_parse(pkcs12, password, key, certificate, chain);
}
static inline void bk_crypto_pkcs12_free(bk_crypto_pkcs12 *pkcs12) { bk_crypto()->PKCS12_free(pkcs12); }
/* Makes the legacy algorithms of old .p12 files available (OpenSSL 3); 1 when it could. */
static inline int bk_crypto_load_legacy_provider(void) {
    const bk_crypto_api *api = bk_crypto();
    if (api->OSSL_PROVIDER_try_load == NULL) return 0;
    return api->OSSL_PROVIDER_try_load(NULL, "legacy", 1) != NULL;
}
static inline bk_crypto_stack *bk_crypto_stack_new(void) { return bk_crypto()->OPENSSL_sk_new_null(); }
static inline int bk_crypto_stack_push(bk_crypto_stack *stack, const bk_crypto_x509 *certificate) {
    return bk_crypto()->OPENSSL_sk_push(stack, certificate);
}
static inline int bk_crypto_stack_count(const bk_crypto_stack *stack) { return bk_crypto()->OPENSSL_sk_num(stack); }
static inline bk_crypto_x509 *bk_crypto_stack_certificate(const bk_crypto_stack *stack, int index) {
    return (bk_crypto_x509 *)bk_crypto()->OPENSSL_sk_value(stack, index);
}
/* Frees the stack only; its certificates are the caller's. */
static inline void bk_crypto_stack_free(bk_crypto_stack *stack) { bk_crypto()->OPENSSL_sk_free(stack); }
/* CMS SignedData over `content` with the content attached, as `openssl cms -sign -nodetach -binary`. */
static inline bk_crypto_cms *bk_crypto_cms_sign(bk_crypto_x509 *certificate, bk_crypto_pkey *key, bk_crypto_stack *chain,
                                                bk_crypto_bio *content) {
    return bk_crypto()->CMS_sign(certificate, key, chain, content, BK_CMS_BINARY | BK_CMS_NOSMIMECAP);
}
static inline int bk_crypto_cms_write_der(bk_crypto_bio *bio, bk_crypto_cms *cms) { return bk_crypto()->i2d_CMS_bio(bio, cms); }
static inline void bk_crypto_cms_free(bk_crypto_cms *cms) { bk_crypto()->CMS_ContentInfo_free(cms); }
/* Reads a DER or BER CMS ContentInfo (NULL when it is not one). */
static inline bk_crypto_cms *bk_crypto_cms_read_der(bk_crypto_bio *bio) { return bk_crypto()->d2i_CMS_bio(bio, NULL); }
/* Checks every signature of SignedData with its content attached and writes the content to `out`;
   1 when every signature verifies. The signers' certificates are not judged (the caller does that
   with bk_crypto_verify_chain), and the content is taken as binary, as it was signed. */
static inline int bk_crypto_cms_verify_signatures(bk_crypto_cms *cms, bk_crypto_bio *out) {
    return bk_crypto()->CMS_verify(cms, NULL, NULL, NULL, out, BK_CMS_BINARY | BK_CMS_NO_SIGNER_CERT_VERIFY);
}
/* The signers' certificates, found by bk_crypto_cms_verify_signatures; free the stack only. */
static inline bk_crypto_stack *bk_crypto_cms_signers(bk_crypto_cms *cms) { return bk_crypto()->CMS_get0_signers(cms); }
/* The certificates the envelope carries; the caller frees each certificate and the stack. */
static inline bk_crypto_stack *bk_crypto_cms_certificates(bk_crypto_cms *cms) { return bk_crypto()->CMS_get1_certs(cms); }
/* A store of trusted certificates whose validity dates are never checked (NULL when out of memory). */
static inline bk_crypto_store *bk_crypto_store_new_ignoring_dates(void) {
    bk_crypto_store *store = bk_crypto()->X509_STORE_new();
    if (store != NULL && bk_crypto()->X509_STORE_set_flags(store, BK_X509_V_FLAG_NO_CHECK_TIME) != 1) {
        bk_crypto()->X509_STORE_free(store);
        return NULL;
    }
    return store;
}
/* Adds a trusted certificate (the store takes its own reference). */
static inline int bk_crypto_store_add(bk_crypto_store *store, bk_crypto_x509 *certificate) {
    return bk_crypto()->X509_STORE_add_cert(store, certificate);
}
static inline void bk_crypto_store_free(bk_crypto_store *store) { bk_crypto()->X509_STORE_free(store); }
/* Builds and verifies `leaf`'s chain to a certificate of `store`, with `untrusted` as candidate
   intermediates. Returns 1 and sets `*chain` (leaf first, anchor last; the caller frees each
   certificate and the stack) when it verifies; otherwise 0 and `*reason` says why. */
static inline int bk_crypto_verify_chain(bk_crypto_store *store, bk_crypto_x509 *leaf, bk_crypto_stack *untrusted,
                                         bk_crypto_stack **chain, const char **reason) {
    *chain = NULL;
    *reason = "out of memory";
    bk_crypto_store_ctx *context = bk_crypto()->X509_STORE_CTX_new();
    if (context == NULL) return 0;
    int verified = 0;
    if (bk_crypto()->X509_STORE_CTX_init(context, store, leaf, untrusted) == 1) {
        if (bk_crypto()->X509_verify_cert(context) == 1) {
            *chain = bk_crypto()->X509_STORE_CTX_get1_chain(context);
            verified = *chain != NULL;
        } else {
            *reason = bk_crypto()->X509_verify_cert_error_string(bk_crypto()->X509_STORE_CTX_get_error(context));
        }
    }
    bk_crypto()->X509_STORE_CTX_free(context);
    return verified;
}

/* Signs `message` with SHA-256 and `key` (ECDSA for an EC key: a DER Ecdsa-Sig-Value); writes at most
   `*length` bytes to `signature` and sets `*length` to the signature's size. 1 on success. */
static inline int bk_crypto_sign_sha256(bk_crypto_pkey *key, const unsigned char *message, size_t message_length,
                                        unsigned char *signature, size_t *length) {
    const bk_crypto_api *api = bk_crypto();
    bk_crypto_md_ctx *context = api->EVP_MD_CTX_new();
    if (context == NULL) return 0;
    int result = api->EVP_DigestSignInit(context, NULL, api->EVP_sha256(), NULL, key) == 1
              && api->EVP_DigestSign(context, signature, length, message, message_length) == 1;
    api->EVP_MD_CTX_free(context);
    return result;
}
/* The oldest error on this thread's queue as text, or 0 when there is none; the queue is then emptied. */
static inline unsigned long bk_crypto_take_error(char *buffer, size_t size) {
    unsigned long code = bk_crypto()->ERR_get_error();
    if (code != 0 && size > 0) bk_crypto()->ERR_error_string_n(code, buffer, size);
    bk_crypto()->ERR_clear_error();
    return code;
}


/* ---- Code signatures (issue 19): detached CMS over a CodeDirectory. Uses only entry points
   resolved above. ---- */

/* Checks every signature of detached SignedData `cms` over `content` (the signed attributes'
   message digest must be that of `content`); 1 when every signature verifies. The signers'
   certificates are not judged: the caller compares them with the profile's. */
static inline int bk_crypto_cms_verify_detached(bk_crypto_cms *cms, bk_crypto_bio *content) {
    return bk_crypto()->CMS_verify(cms, NULL, NULL, content, NULL, BK_CMS_BINARY | BK_CMS_NO_SIGNER_CERT_VERIFY);
}

/* CMS_sign flags (cms.h) for a detached signature finished after attributes are added. */
#define BK_CMS_DETACHED 0x40
#define BK_CMS_PARTIAL 0x4000
/* V_ASN1_OCTET_STRING (asn1.h). */
#define BK_V_ASN1_OCTET_STRING 4

/* The three further entry points code signing needs, resolved on first use from the same library
   (dlopen hands back the handle already loaded). */
typedef struct {
    bk_crypto_stack *(*CMS_get0_SignerInfos)(bk_crypto_cms *);
    int (*CMS_signed_add1_attr_by_txt)(void *, const char *, int, const void *, int);
    int (*CMS_final)(bk_crypto_cms *, bk_crypto_bio *, bk_crypto_bio *, unsigned int);
    const char *failure;
    pthread_once_t once;
} bk_crypto_codesign_api;

static inline bk_crypto_codesign_api *bk_crypto_codesign_state(void) {
    static bk_crypto_codesign_api state = { .once = PTHREAD_ONCE_INIT };
    return &state;
}

static inline void bk_crypto_codesign_load(void) {
    bk_crypto_codesign_api *api = bk_crypto_codesign_state();
    if (bk_crypto_load_error() != NULL) {
        api->failure = bk_crypto_load_error();
        return;
    }
    /* A copy, so a failure here does not change why bk_crypto_load_error() says libcrypto failed (it did not). */
    bk_library_loader again = bk_crypto_loader_state()->loader;
    void *library = bk_library_open(&again, bk_crypto_candidates(), "libcrypto could not be opened again");
    if (library == NULL) {
        api->failure = "libcrypto could not be opened again for code signing";
        return;
    }
    api->CMS_get0_SignerInfos = (__typeof__(api->CMS_get0_SignerInfos))dlsym(library, "CMS_get0_SignerInfos");
    api->CMS_signed_add1_attr_by_txt = (__typeof__(api->CMS_signed_add1_attr_by_txt))dlsym(library, "CMS_signed_add1_attr_by_txt");
    api->CMS_final = (__typeof__(api->CMS_final))dlsym(library, "CMS_final");
    if (api->CMS_get0_SignerInfos == NULL || api->CMS_signed_add1_attr_by_txt == NULL || api->CMS_final == NULL) {
        api->failure = "CMS_get0_SignerInfos, CMS_signed_add1_attr_by_txt or CMS_final is missing from libcrypto";
    }
}

/* Why code signing cannot use libcrypto, or NULL. */
static inline const char *bk_crypto_codesign_load_error(void) {
    bk_crypto_codesign_api *api = bk_crypto_codesign_state();
    pthread_once(&api->once, bk_crypto_codesign_load);
    return api->failure;
}

/* Detached CMS SignedData over `content` by `certificate` (with `chain`), whose signed attributes
   (content type, signing time, message digest) also hold `oid` = OCTET STRING `value`, as codesign's
   CMS blob carries the CDHashes. NULL on failure (the reason is on libcrypto's error queue). */
static inline bk_crypto_cms *bk_crypto_cms_sign_detached_with_attribute(bk_crypto_x509 *certificate, bk_crypto_pkey *key,
                                                                      bk_crypto_stack *chain, bk_crypto_bio *content,
                                                                      const char *oid, const void *value, int length) {
    if (bk_crypto_codesign_load_error() != NULL) return NULL;
    bk_crypto_codesign_api *api = bk_crypto_codesign_state();
    unsigned int flags = BK_CMS_BINARY | BK_CMS_NOSMIMECAP | BK_CMS_DETACHED | BK_CMS_PARTIAL;
    bk_crypto_cms *cms = bk_crypto()->CMS_sign(certificate, key, chain, NULL, flags);
    if (cms == NULL) return NULL;
    bk_crypto_stack *infos = api->CMS_get0_SignerInfos(cms);
    void *info = infos != NULL && bk_crypto()->OPENSSL_sk_num(infos) > 0 ? bk_crypto()->OPENSSL_sk_value(infos, 0) : NULL;
    if (info == NULL || api->CMS_signed_add1_attr_by_txt(info, oid, BK_V_ASN1_OCTET_STRING, value, length) != 1
        || api->CMS_final(cms, content, NULL, flags) != 1) {
        bk_crypto()->CMS_ContentInfo_free(cms);
        return NULL;
    }
    return cms;
}

#endif
