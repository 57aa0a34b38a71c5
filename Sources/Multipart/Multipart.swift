// Multipart: a generic streaming multipart/form-data reader that spools large parts to disk through
// PosixIO. It may import PosixIO, Synchronization and the C library's memchr and memcmp, nothing of the
// application that uses it.
