#ifndef BK_LIBRARY_LOADER_H
#define BK_LIBRARY_LOADER_H
/*
 * Opening an optional system library with dlopen on first use, shared by the shims that load
 * libcrypto (Sources/CCrypto) and libcurl (Sources/CCurl): the state a loader keeps (why it
 * failed, a library picked instead of the system's) and the search through candidate file names.
 * Each shim keeps its own table of entry points and resolves them itself.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    const char *failure;
    char failure_text[512]; /* dlerror()'s text is reused by the next call: keep a copy */
    char preferred[1024];
} bk_library_loader;

/* Loads `path` instead of the candidates; only before the library is first used. */
static inline void bk_library_prefer(bk_library_loader *loader, const char *path) {
    snprintf(loader->preferred, sizeof loader->preferred, "%s", path != NULL ? path : "");
}

/* Opens the preferred library, or else the first of the NULL-terminated `candidates` that loads.
   On failure returns NULL and records dlerror()'s reason (or `fallback_reason`) as the failure. */
static inline void *bk_library_open(bk_library_loader *loader, const char *const *candidates, const char *fallback_reason) {
    void *library = NULL;
    if (loader->preferred[0] != '\0') {
        library = dlopen(loader->preferred, RTLD_NOW | RTLD_LOCAL);
    } else {
        for (int index = 0; candidates[index] != NULL && library == NULL; index++) {
            library = dlopen(candidates[index], RTLD_NOW | RTLD_LOCAL);
        }
    }
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(loader->failure_text, sizeof loader->failure_text, "%s", reason != NULL ? reason : fallback_reason);
        loader->failure = loader->failure_text;
    }
    return library;
}

#endif
