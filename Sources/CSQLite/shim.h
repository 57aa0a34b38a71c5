#ifndef BETACTL_SQLITE_SHIM_H
#define BETACTL_SQLITE_SHIM_H
/*
 * SQLite, loaded when a database is first opened rather than when betactl starts.
 *
 * Most `betactl symbolicate` runs (and `--version`, help, the format commands) never touch the
 * home's database, and loading and binding the library at start-up would cost each of them
 * more than symbolicating a crash report. Swift calls the bk_sqlite3_* wrappers below, which
 * forward to the library's own entry points. If the library cannot be loaded, bk_sqlite3_open_v2
 * fails with SQLITE_CANTOPEN and bk_sqlite3_load_error() says why; no other wrapper can be
 * reached without an open connection.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <sqlite3.h>

typedef struct {
    __typeof__(sqlite3_open_v2) *open_v2;
    __typeof__(sqlite3_errmsg) *errmsg;
    __typeof__(sqlite3_close_v2) *close_v2;
    __typeof__(sqlite3_extended_result_codes) *extended_result_codes;
    __typeof__(sqlite3_exec) *exec;
    __typeof__(sqlite3_free) *free;
    __typeof__(sqlite3_extended_errcode) *extended_errcode;
    __typeof__(sqlite3_prepare_v3) *prepare_v3;
    __typeof__(sqlite3_last_insert_rowid) *last_insert_rowid;
    __typeof__(sqlite3_changes) *changes;
    __typeof__(sqlite3_busy_timeout) *busy_timeout;
    __typeof__(sqlite3_finalize) *finalize;
    __typeof__(sqlite3_reset) *reset;
    __typeof__(sqlite3_clear_bindings) *clear_bindings;
    __typeof__(sqlite3_bind_null) *bind_null;
    __typeof__(sqlite3_bind_int64) *bind_int64;
    __typeof__(sqlite3_bind_double) *bind_double;
    __typeof__(sqlite3_bind_text) *bind_text;
    __typeof__(sqlite3_bind_blob) *bind_blob;
    __typeof__(sqlite3_step) *step;
    __typeof__(sqlite3_column_count) *column_count;
    __typeof__(sqlite3_column_type) *column_type;
    __typeof__(sqlite3_column_int64) *column_int64;
    __typeof__(sqlite3_column_double) *column_double;
    __typeof__(sqlite3_column_text) *column_text;
    __typeof__(sqlite3_column_bytes) *column_bytes;
    __typeof__(sqlite3_column_blob) *column_blob;
    __typeof__(sqlite3_backup_init) *backup_init;
    __typeof__(sqlite3_backup_step) *backup_step;
    __typeof__(sqlite3_backup_finish) *backup_finish;
} bk_sqlite3_api;

typedef struct {
    bk_sqlite3_api api;
    const char *failure;
    char failure_text[512]; /* dlerror()'s text is reused by the next call: keep a copy */
    pthread_once_t once;
} bk_sqlite3_loader;

/* Function-local, because Swift does not emit a header's file-scope statics. */
static inline bk_sqlite3_loader *bk_sqlite3_loader_state(void) {
    static bk_sqlite3_loader state = { .once = PTHREAD_ONCE_INIT };
    return &state;
}

static inline void bk_sqlite3_load(void) {
    bk_sqlite3_api *table = &bk_sqlite3_loader_state()->api;
    const char **failure = &bk_sqlite3_loader_state()->failure;
#if defined(__APPLE__)
    void *library = dlopen("libsqlite3.dylib", RTLD_NOW | RTLD_LOCAL);
#else
    void *library = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
#endif
    if (library == NULL) {
        const char *reason = dlerror();
        char *text = bk_sqlite3_loader_state()->failure_text;
        snprintf(text, sizeof bk_sqlite3_loader_state()->failure_text, "%s",
                 reason != NULL ? reason : "the SQLite library could not be loaded");
        *failure = text;
        return;
    }
#define BK_SQLITE3_RESOLVE(name)                                                                  \
    table->name = (__typeof__(table->name))dlsym(library, "sqlite3_" #name);                      \
    if (table->name == NULL) {                                                                    \
        *failure = "sqlite3_" #name " is missing; SQLite 3.20 or later is needed";                \
        return;                                                                                   \
    }
    BK_SQLITE3_RESOLVE(open_v2) BK_SQLITE3_RESOLVE(errmsg) BK_SQLITE3_RESOLVE(close_v2)
    BK_SQLITE3_RESOLVE(extended_result_codes) BK_SQLITE3_RESOLVE(exec) BK_SQLITE3_RESOLVE(free)
    BK_SQLITE3_RESOLVE(extended_errcode) BK_SQLITE3_RESOLVE(prepare_v3) BK_SQLITE3_RESOLVE(last_insert_rowid)
    BK_SQLITE3_RESOLVE(changes) BK_SQLITE3_RESOLVE(busy_timeout) BK_SQLITE3_RESOLVE(finalize)
    BK_SQLITE3_RESOLVE(reset) BK_SQLITE3_RESOLVE(clear_bindings) BK_SQLITE3_RESOLVE(bind_null)
    BK_SQLITE3_RESOLVE(bind_int64) BK_SQLITE3_RESOLVE(bind_double) BK_SQLITE3_RESOLVE(bind_text)
    BK_SQLITE3_RESOLVE(bind_blob) BK_SQLITE3_RESOLVE(step) BK_SQLITE3_RESOLVE(column_count)
    BK_SQLITE3_RESOLVE(column_type) BK_SQLITE3_RESOLVE(column_int64) BK_SQLITE3_RESOLVE(column_double)
    BK_SQLITE3_RESOLVE(column_text) BK_SQLITE3_RESOLVE(column_bytes) BK_SQLITE3_RESOLVE(column_blob)
    BK_SQLITE3_RESOLVE(backup_init) BK_SQLITE3_RESOLVE(backup_step) BK_SQLITE3_RESOLVE(backup_finish)
#undef BK_SQLITE3_RESOLVE
}

/* The entry points; every wrapper makes sure they are loaded (a header's statics exist once per object file). */
static inline const bk_sqlite3_api *bk_sqlite3(void) {
    bk_sqlite3_loader *state = bk_sqlite3_loader_state();
    pthread_once(&state->once, bk_sqlite3_load);
    return &state->api;
}

/* Why the library could not be loaded, or NULL when it was. */
static inline const char *bk_sqlite3_load_error(void) {
    bk_sqlite3_loader *state = bk_sqlite3_loader_state();
    pthread_once(&state->once, bk_sqlite3_load);
    return state->failure;
}

static inline int bk_sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs) {
    if (bk_sqlite3_load_error() != NULL) {
        *db = NULL;
        return SQLITE_CANTOPEN;
    }
    return bk_sqlite3()->open_v2(filename, db, flags, vfs);
}
static inline const char *bk_sqlite3_errmsg(sqlite3 *db) { return bk_sqlite3()->errmsg(db); }
static inline int bk_sqlite3_close_v2(sqlite3 *db) { return bk_sqlite3()->close_v2(db); }
static inline int bk_sqlite3_extended_result_codes(sqlite3 *db, int on) { return bk_sqlite3()->extended_result_codes(db, on); }
static inline int bk_sqlite3_exec(sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *argument,
                                  char **errorMessage) {
    return bk_sqlite3()->exec(db, sql, callback, argument, errorMessage);
}
static inline void bk_sqlite3_free(void *pointer) { bk_sqlite3()->free(pointer); }
static inline int bk_sqlite3_extended_errcode(sqlite3 *db) { return bk_sqlite3()->extended_errcode(db); }
static inline int bk_sqlite3_prepare_v3(sqlite3 *db, const char *sql, int length, unsigned int flags, sqlite3_stmt **statement,
                                        const char **tail) {
    return bk_sqlite3()->prepare_v3(db, sql, length, flags, statement, tail);
}
static inline sqlite3_int64 bk_sqlite3_last_insert_rowid(sqlite3 *db) { return bk_sqlite3()->last_insert_rowid(db); }
static inline int bk_sqlite3_changes(sqlite3 *db) { return bk_sqlite3()->changes(db); }
static inline int bk_sqlite3_busy_timeout(sqlite3 *db, int milliseconds) { return bk_sqlite3()->busy_timeout(db, milliseconds); }
static inline int bk_sqlite3_finalize(sqlite3_stmt *statement) { return bk_sqlite3()->finalize(statement); }
static inline int bk_sqlite3_reset(sqlite3_stmt *statement) { return bk_sqlite3()->reset(statement); }
static inline int bk_sqlite3_clear_bindings(sqlite3_stmt *statement) { return bk_sqlite3()->clear_bindings(statement); }
static inline int bk_sqlite3_bind_null(sqlite3_stmt *statement, int index) { return bk_sqlite3()->bind_null(statement, index); }
static inline int bk_sqlite3_bind_int64(sqlite3_stmt *statement, int index, sqlite3_int64 value) {
    return bk_sqlite3()->bind_int64(statement, index, value);
}
static inline int bk_sqlite3_bind_double(sqlite3_stmt *statement, int index, double value) {
    return bk_sqlite3()->bind_double(statement, index, value);
}
static inline int bk_sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int length, void (*destructor)(void *)) {
    return bk_sqlite3()->bind_text(statement, index, text, length, destructor);
}
static inline int bk_sqlite3_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length, void (*destructor)(void *)) {
    return bk_sqlite3()->bind_blob(statement, index, bytes, length, destructor);
}
static inline int bk_sqlite3_step(sqlite3_stmt *statement) { return bk_sqlite3()->step(statement); }
static inline int bk_sqlite3_column_count(sqlite3_stmt *statement) { return bk_sqlite3()->column_count(statement); }
static inline int bk_sqlite3_column_type(sqlite3_stmt *statement, int column) { return bk_sqlite3()->column_type(statement, column); }
static inline sqlite3_int64 bk_sqlite3_column_int64(sqlite3_stmt *statement, int column) {
    return bk_sqlite3()->column_int64(statement, column);
}
static inline double bk_sqlite3_column_double(sqlite3_stmt *statement, int column) { return bk_sqlite3()->column_double(statement, column); }
static inline const unsigned char *bk_sqlite3_column_text(sqlite3_stmt *statement, int column) {
    return bk_sqlite3()->column_text(statement, column);
}
static inline int bk_sqlite3_column_bytes(sqlite3_stmt *statement, int column) { return bk_sqlite3()->column_bytes(statement, column); }
static inline const void *bk_sqlite3_column_blob(sqlite3_stmt *statement, int column) { return bk_sqlite3()->column_blob(statement, column); }
/* The online backup API: a consistent copy of a database other connections keep writing to. */
static inline sqlite3_backup *bk_sqlite3_backup_init(sqlite3 *destination, const char *destinationName, sqlite3 *source,
                                                     const char *sourceName) {
    return bk_sqlite3()->backup_init(destination, destinationName, source, sourceName);
}
static inline int bk_sqlite3_backup_step(sqlite3_backup *backup, int pages) { return bk_sqlite3()->backup_step(backup, pages); }
static inline int bk_sqlite3_backup_finish(sqlite3_backup *backup) { return bk_sqlite3()->backup_finish(backup); }

#endif
