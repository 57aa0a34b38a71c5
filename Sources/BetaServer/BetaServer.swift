// BetaServer: a generic HTTP/1.1 engine: event loops (epoll/kqueue), the request parser,
// responses and sendfile, the router with route groups, typed route parameters and typed context
// values (ContextValues), middleware, body spooling, the bounded pool for blocking work, and an
// in-process client for tests.
//
// Generic: it knows nothing of the application above it and names none of its commands. It may import PosixIO,
// CSystemShim and CZlib (and Glibc/Darwin for the event loop's epoll/kqueue), nothing else.
