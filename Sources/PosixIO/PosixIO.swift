// PosixIO: system calls wrapped once, with EINTR retries and typed errors that name the call and
// the path (open, read, write, close, rename, fsync, directories). Other modules use it instead
// of importing Glibc; only the event loop's epoll/kqueue code imports the C library directly.
// It imports only the C library.
