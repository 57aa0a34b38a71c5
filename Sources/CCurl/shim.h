#ifndef BK_CURL_SHIM_H
#define BK_CURL_SHIM_H
/*
 * The few entry points of the system's libcurl that an HTTPS client needs, loaded with dlopen on
 * first use rather than linked.
 *
 * Outbound HTTPS is optional: a program that never makes a request must start, and serve, on a
 * machine without libcurl, and must not pay for loading it. So no curl header is needed to build:
 * the handle types are opaque and the prototypes and option numbers are curl's documented, stable
 * ABI (curl.h has kept them since 7.x). Swift calls the bk_curl_* wrappers; bk_curl_load_error()
 * says why the library could not be used (then no other wrapper may be called).
 * bk_curl_use_library() picks another file, for tests and unusual installs, and must come first.
 *
 * Response bodies and headers are collected here, in C, into growable buffers with a size limit,
 * so Swift passes no callbacks across the boundary.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../CLibraryLoader/loader.h"

typedef struct bk_curl_handle bk_curl_handle; /* CURL */
typedef struct bk_curl_slist {                /* struct curl_slist */
    char *data;
    struct bk_curl_slist *next;
} bk_curl_slist;

/* Option numbers (curl.h: LONG 0, OBJECTPOINT 10000, FUNCTIONPOINT 20000, OFF_T 30000). */
#define BK_CURLOPT_WRITEDATA 10001
#define BK_CURLOPT_URL 10002
#define BK_CURLOPT_ERRORBUFFER 10010
#define BK_CURLOPT_POSTFIELDS 10015
#define BK_CURLOPT_HTTPHEADER 10023
#define BK_CURLOPT_HEADERDATA 10029
#define BK_CURLOPT_CUSTOMREQUEST 10036
#define BK_CURLOPT_CAINFO 10065
#define BK_CURLOPT_PROXY 10004
#define BK_CURLOPT_RESOLVE 10203
#define BK_CURLOPT_WRITEFUNCTION 20011
#define BK_CURLOPT_HEADERFUNCTION 20079
#define BK_CURLOPT_POSTFIELDSIZE_LARGE 30120
#define BK_CURLOPT_NOSIGNAL 99
#define BK_CURLOPT_TIMEOUT_MS 155
#define BK_CURLOPT_CONNECTTIMEOUT_MS 156
#define BK_CURLOPT_HTTPGET 80
#define BK_CURLOPT_FOLLOWLOCATION 52
#define BK_CURLOPT_PROTOCOLS 181
#define BK_CURLOPT_REDIR_PROTOCOLS 182
#define BK_CURLPROTO_HTTP_HTTPS 3
#define BK_CURLINFO_RESPONSE_CODE 0x200002
#define BK_CURL_GLOBAL_DEFAULT 3
#define BK_CURL_ERROR_SIZE 256

typedef struct {
    int (*curl_global_init)(long);
    bk_curl_handle *(*curl_easy_init)(void);
    int (*curl_easy_setopt)(bk_curl_handle *, int, ...);
    int (*curl_easy_perform)(bk_curl_handle *);
    int (*curl_easy_getinfo)(bk_curl_handle *, int, ...);
    void (*curl_easy_cleanup)(bk_curl_handle *);
    void (*curl_easy_reset)(bk_curl_handle *);
    const char *(*curl_easy_strerror)(int);
    bk_curl_slist *(*curl_slist_append)(bk_curl_slist *, const char *);
    void (*curl_slist_free_all)(bk_curl_slist *);
} bk_curl_api;

typedef struct {
    bk_curl_api api;
    bk_library_loader loader;
    pthread_once_t once;
} bk_curl_loader;

/* Function-local, because Swift does not emit a header's file-scope statics. */
static inline bk_curl_loader *bk_curl_loader_state(void) {
    static bk_curl_loader state = { .once = PTHREAD_ONCE_INIT };
    return &state;
}

/* Loads `path` instead of the system's libcurl; only before the first other bk_curl_ call. */
static inline void bk_curl_use_library(const char *path) { bk_library_prefer(&bk_curl_loader_state()->loader, path); }

static inline void bk_curl_load(void) {
    bk_curl_loader *state = bk_curl_loader_state();
    bk_curl_api *table = &state->api;
#if defined(__APPLE__)
    static const char *const candidates[] = { "/usr/lib/libcurl.4.dylib", NULL };
#else
    static const char *const candidates[] = { "libcurl.so.4", "libcurl-gnutls.so.4", "libcurl-nss.so.4", NULL };
#endif
    void *library = bk_library_open(&state->loader, candidates, "the libcurl library could not be loaded");
    if (library == NULL) return;
#define BK_CURL_RESOLVE(name)                                                                     \
    table->name = (__typeof__(table->name))dlsym(library, #name);                                 \
    if (table->name == NULL) {                                                                    \
        state->loader.failure = #name " is missing from libcurl; libcurl 7.17 or later is needed";       \
        return;                                                                                   \
    }
    BK_CURL_RESOLVE(curl_global_init) BK_CURL_RESOLVE(curl_easy_init) BK_CURL_RESOLVE(curl_easy_setopt)
    BK_CURL_RESOLVE(curl_easy_perform) BK_CURL_RESOLVE(curl_easy_getinfo) BK_CURL_RESOLVE(curl_easy_cleanup)
    BK_CURL_RESOLVE(curl_easy_reset) BK_CURL_RESOLVE(curl_easy_strerror) BK_CURL_RESOLVE(curl_slist_append)
    BK_CURL_RESOLVE(curl_slist_free_all)
#undef BK_CURL_RESOLVE
    /* Not thread-safe itself, so it runs here, once, before any handle exists. */
    if (table->curl_global_init(BK_CURL_GLOBAL_DEFAULT) != 0) {
        state->loader.failure = "libcurl could not initialise (curl_global_init failed)";
    }
}

static inline const bk_curl_api *bk_curl(void) {
    bk_curl_loader *state = bk_curl_loader_state();
    pthread_once(&state->once, bk_curl_load);
    return &state->api;
}

/* Why libcurl cannot be used, or NULL when it loaded. */
static inline const char *bk_curl_load_error(void) {
    bk_curl_loader *state = bk_curl_loader_state();
    pthread_once(&state->once, bk_curl_load);
    return state->loader.failure;
}

/* A growable byte buffer that refuses to grow past `limit`. */
typedef struct {
    unsigned char *bytes;
    size_t length;
    size_t capacity;
    size_t limit;
    int overflowed;
    int truncates; /* when set, bytes past `limit` are dropped and the transfer ends without error */
} bk_curl_buffer;

static inline size_t bk_curl_collect(char *data, size_t size, size_t count, void *context) {
    bk_curl_buffer *buffer = (bk_curl_buffer *)context;
    if (count != 0 && size > SIZE_MAX / count) return 0;
    size_t length = size * count;
    if (length > buffer->limit - buffer->length) {
        buffer->overflowed = 1;
        if (!buffer->truncates) return 0; /* makes curl stop with CURLE_WRITE_ERROR */
        /* Keeps what fits; returning less than was offered ends the transfer (CURLE_WRITE_ERROR),
           which the caller reads as a complete, truncated answer. */
        length = buffer->limit - buffer->length;
    }
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity < 4096 ? 4096 : buffer->capacity;
        while (capacity < buffer->length + length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(buffer->bytes, capacity);
        if (grown == NULL) return 0;
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, data, length);
    buffer->length += length;
    return length;
}

static inline void bk_curl_buffer_free(bk_curl_buffer *buffer) {
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->length = 0;
    buffer->capacity = 0;
}

static inline bk_curl_handle *bk_curl_easy_new(void) { return bk_curl()->curl_easy_init(); }
static inline void bk_curl_easy_free(bk_curl_handle *handle) { bk_curl()->curl_easy_cleanup(handle); }
static inline void bk_curl_easy_reset(bk_curl_handle *handle) { bk_curl()->curl_easy_reset(handle); }
static inline int bk_curl_set_string(bk_curl_handle *handle, int option, const char *value) {
    return bk_curl()->curl_easy_setopt(handle, option, value);
}
static inline int bk_curl_set_long(bk_curl_handle *handle, int option, long value) {
    return bk_curl()->curl_easy_setopt(handle, option, value);
}
static inline int bk_curl_set_pointer(bk_curl_handle *handle, int option, void *value) {
    return bk_curl()->curl_easy_setopt(handle, option, value);
}
/* A request body of `length` bytes, which must stay valid until the transfer ends. */
static inline int bk_curl_set_body(bk_curl_handle *handle, const void *bytes, long long length) {
    int result = bk_curl()->curl_easy_setopt(handle, BK_CURLOPT_POSTFIELDSIZE_LARGE, (int64_t)length);
    if (result != 0) return result;
    return bk_curl()->curl_easy_setopt(handle, BK_CURLOPT_POSTFIELDS, bytes);
}
/* Sends the response's body to `body` and its header lines to `headers`. */
static inline int bk_curl_collect_into(bk_curl_handle *handle, bk_curl_buffer *body, bk_curl_buffer *headers) {
    const bk_curl_api *api = bk_curl();
    size_t (*collect)(char *, size_t, size_t, void *) = bk_curl_collect;
    int result = api->curl_easy_setopt(handle, BK_CURLOPT_WRITEFUNCTION, collect);
    if (result == 0) result = api->curl_easy_setopt(handle, BK_CURLOPT_WRITEDATA, (void *)body);
    if (result == 0) result = api->curl_easy_setopt(handle, BK_CURLOPT_HEADERFUNCTION, collect);
    if (result == 0) result = api->curl_easy_setopt(handle, BK_CURLOPT_HEADERDATA, (void *)headers);
    return result;
}
static inline int bk_curl_perform(bk_curl_handle *handle) { return bk_curl()->curl_easy_perform(handle); }
static inline long bk_curl_response_code(bk_curl_handle *handle) {
    long code = 0;
    if (bk_curl()->curl_easy_getinfo(handle, BK_CURLINFO_RESPONSE_CODE, &code) != 0) return 0;
    return code;
}
static inline const char *bk_curl_error_text(int code) { return bk_curl()->curl_easy_strerror(code); }
static inline bk_curl_slist *bk_curl_list_append(bk_curl_slist *list, const char *line) {
    return bk_curl()->curl_slist_append(list, line);
}
static inline void bk_curl_list_free(bk_curl_slist *list) { bk_curl()->curl_slist_free_all(list); }

#endif
