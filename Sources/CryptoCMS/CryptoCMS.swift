// CryptoCMS: generic CMS SignedData signing and verification, and ES256, over the system's
// libcrypto (CCrypto, loaded with dlopen on first use through CLibraryLoader). It may import
// CCrypto only, nothing of the application that uses it.
