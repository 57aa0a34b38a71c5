#ifndef BK_SYSTEM_SHIM_H
#define BK_SYSTEM_SHIM_H
/*
 * Thin C wrappers over the kernel interfaces the HTTP engine needs.
 *
 * Swift imports several of these poorly (packed `struct epoll_event`, macro flags
 * such as SOCK_NONBLOCK, the two incompatible `sendfile` signatures), so the
 * engine talks to this small, platform-neutral surface instead:
 *   - a poller (epoll on Linux, kqueue on Darwin) with edge-triggered connection
 *     registrations, level-triggered listener registrations and a waker;
 *   - socket helpers (listen, accept, options);
 *   - sendfile with one signature, returning -1/ENOSYS where unsupported.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <limits.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>

#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/sendfile.h>
#elif defined(__APPLE__)
#include <sys/event.h>
#include <sys/time.h>
#include <sys/uio.h>
#endif

/* Event bits reported by shim_poller_wait. */
#define SHIM_EVENT_READABLE 1u
#define SHIM_EVENT_WRITABLE 2u
#define SHIM_EVENT_HANGUP 4u
/* Token reserved for the poller's waker. */
#define SHIM_WAKER_TOKEN UINT64_MAX

/* Failure stages reported by shim_listen, so callers can name what went wrong. */
#define SHIM_LISTEN_BAD_ADDRESS 1
#define SHIM_LISTEN_SOCKET 2
#define SHIM_LISTEN_BIND 3
#define SHIM_LISTEN_LISTEN 4

static inline void shim_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

/* Names the calling thread (Linux keeps the first 15 bytes) for debuggers and `top -H`. */
static inline void shim_set_thread_name(const char *name) {
#if defined(__linux__)
    prctl(PR_SET_NAME, name, 0, 0, 0);
#elif defined(__APPLE__)
    pthread_setname_np(name);
#endif
}

static inline int shim_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL, 0);
    if (flags < 0) return -1;
    if (fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return -1;
    return fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static inline void shim_configure_connection(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
#if defined(SO_NOSIGPIPE)
    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof(one));
#endif
}

/*
 * Raises the soft RLIMIT_NOFILE to the hard limit, so a server is not capped by the usual soft
 * default of 1024. Darwin refuses a soft limit above OPEN_MAX, and Linux one above fs.nr_open
 * (1048576 by default), so the target is clamped there when the hard limit is unlimited.
 * *before and *after receive the soft limit (UINT64_MAX for unlimited). Returns 0, or -1 with
 * errno when the limit could not be read or changed (*after then holds the unchanged limit).
 */
static inline int shim_raise_descriptor_limit(uint64_t *before, uint64_t *after) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    *before = limit.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)limit.rlim_cur;
    *after = *before;
    rlim_t target = limit.rlim_max;
#if defined(__APPLE__)
    if (target == RLIM_INFINITY || target > (rlim_t)OPEN_MAX) target = (rlim_t)OPEN_MAX;
#else
    if (target == RLIM_INFINITY) target = (rlim_t)1048576;
#endif
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur >= target) return 0;
    if (limit.rlim_cur == RLIM_INFINITY) return 0;
    limit.rlim_cur = target;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    *after = (uint64_t)target;
    return 0;
}

/* Sets SO_LINGER {on, 0}: close() then resets the connection instead of lingering. */
static inline void shim_set_abortive_close(int fd) {
    struct linger l = { 1, 0 };
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
}

/*
 * Creates a non-blocking listening socket bound to host:port (a numeric IPv4 or
 * IPv6 address). Returns the fd, or -1 with *stage and *error set. *bound_port
 * receives the actual port (useful with port 0).
 */
static inline int shim_listen(const char *host, int port, int backlog, int *bound_port, int *stage, int *error) {
    struct sockaddr_storage storage;
    socklen_t length;
    int family;
    memset(&storage, 0, sizeof(storage));
    struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        family = AF_INET;
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        length = sizeof(struct sockaddr_in);
    } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        family = AF_INET6;
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        length = sizeof(struct sockaddr_in6);
    } else {
        *stage = SHIM_LISTEN_BAD_ADDRESS;
        *error = EINVAL;
        return -1;
    }
#if defined(__APPLE__)
    ((struct sockaddr *)&storage)->sa_len = (uint8_t)length;
#endif
    int fd = socket(family, SOCK_STREAM, 0);
    if (fd < 0) { *stage = SHIM_LISTEN_SOCKET; *error = errno; return -1; }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
    if (bind(fd, (struct sockaddr *)&storage, length) < 0) {
        *stage = SHIM_LISTEN_BIND; *error = errno; close(fd); return -1;
    }
    if (listen(fd, backlog) < 0 || shim_set_nonblocking(fd) < 0) {
        *stage = SHIM_LISTEN_LISTEN; *error = errno; close(fd); return -1;
    }
    struct sockaddr_storage actual;
    socklen_t actual_length = sizeof(actual);
    if (getsockname(fd, (struct sockaddr *)&actual, &actual_length) == 0) {
        if (actual.ss_family == AF_INET) *bound_port = ntohs(((struct sockaddr_in *)&actual)->sin_port);
        else *bound_port = ntohs(((struct sockaddr_in6 *)&actual)->sin6_port);
    }
    return fd;
}

/*
 * Accepts one connection as a non-blocking, close-on-exec socket and writes the
 * peer's numeric address into `address` (IPv4-mapped IPv6 shown as IPv4).
 * Returns the fd or -1 with errno set.
 */
static inline int shim_accept(int listener, char *address, int address_capacity, int *peer_port) {
    struct sockaddr_storage peer;
    socklen_t length = sizeof(peer);
#if defined(__linux__)
    int fd = accept4(listener, (struct sockaddr *)&peer, &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return -1;
#else
    int fd = accept(listener, (struct sockaddr *)&peer, &length);
    if (fd < 0) return -1;
    if (shim_set_nonblocking(fd) < 0) { int saved = errno; close(fd); errno = saved; return -1; }
#endif
    address[0] = 0;
    *peer_port = 0;
    if (peer.ss_family == AF_INET) {
        struct sockaddr_in *in = (struct sockaddr_in *)&peer;
        inet_ntop(AF_INET, &in->sin_addr, address, (socklen_t)address_capacity);
        *peer_port = ntohs(in->sin_port);
    } else if (peer.ss_family == AF_INET6) {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&peer;
        if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
            inet_ntop(AF_INET, &in6->sin6_addr.s6_addr[12], address, (socklen_t)address_capacity);
        } else {
            inet_ntop(AF_INET6, &in6->sin6_addr, address, (socklen_t)address_capacity);
        }
        *peer_port = ntohs(in6->sin6_port);
    }
    shim_configure_connection(fd);
    return fd;
}

/*
 * Parses a numeric IPv4 or IPv6 address into 16 bytes (IPv4 as IPv4-mapped
 * IPv6). Returns 4 or 6 for the family, 0 when the text is not an address.
 */
static inline int shim_parse_address(const char *text, uint8_t *out16) {
    struct in_addr v4;
    struct in6_addr v6;
    if (inet_pton(AF_INET, text, &v4) == 1) {
        memset(out16, 0, 10);
        out16[10] = 0xff; out16[11] = 0xff;
        memcpy(out16 + 12, &v4, 4);
        return 4;
    }
    if (inet_pton(AF_INET6, text, &v6) == 1) {
        memcpy(out16, &v6, 16);
        return 6;
    }
    return 0;
}

/*
 * Sends up to `count` bytes of `in_fd` starting at `offset` to the socket.
 * Returns the bytes sent, or -1 with errno (ENOSYS where the platform has no
 * usable sendfile, so the caller falls back to a read/write loop).
 */
static inline int64_t shim_sendfile(int out_fd, int in_fd, int64_t offset, size_t count) {
#if defined(__linux__)
    off_t position = (off_t)offset;
    ssize_t sent = sendfile(out_fd, in_fd, &position, count);
    return (int64_t)sent;
#elif defined(__APPLE__)
    off_t length = (off_t)count;
    int result = sendfile(in_fd, out_fd, (off_t)offset, &length, NULL, 0);
    if (result == -1) {
        /* Darwin reports partial progress together with EAGAIN/EINTR. */
        if ((errno == EAGAIN || errno == EINTR) && length > 0) return (int64_t)length;
        return -1;
    }
    return (int64_t)length;
#else
    (void)out_fd; (void)in_fd; (void)offset; (void)count;
    errno = ENOSYS;
    return -1;
#endif
}

/* ---- Poller ------------------------------------------------------------ */

#if defined(__linux__)

/* Creates the poller and its waker. Returns the poller fd or -1; *waker receives the waker fd. */
static inline int shim_poller_create(int *waker) {
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0) return -1;
    int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (efd < 0) { close(ep); return -1; }
    struct epoll_event event;
    memset(&event, 0, sizeof(event));
    event.events = EPOLLIN;
    event.data.u64 = SHIM_WAKER_TOKEN;
    if (epoll_ctl(ep, EPOLL_CTL_ADD, efd, &event) < 0) { close(efd); close(ep); return -1; }
    *waker = efd;
    return ep;
}

/* Registers a connection edge-triggered for both directions. */
static inline int shim_poller_add(int poller, int fd, uint64_t token) {
    struct epoll_event event;
    memset(&event, 0, sizeof(event));
    event.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    event.data.u64 = token;
    return epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event);
}

/* Registers a listening socket level-triggered; EPOLLEXCLUSIVE avoids waking every loop. */
static inline int shim_poller_add_listener(int poller, int fd, uint64_t token) {
    struct epoll_event event;
    memset(&event, 0, sizeof(event));
    event.events = EPOLLIN | EPOLLEXCLUSIVE;
    event.data.u64 = token;
    return epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event);
}

static inline int shim_poller_remove(int poller, int fd) {
    struct epoll_event event;
    memset(&event, 0, sizeof(event));
    return epoll_ctl(poller, EPOLL_CTL_DEL, fd, &event);
}

static inline int shim_waker_signal(int waker) {
    uint64_t one = 1;
    return (int)write(waker, &one, sizeof(one));
}

static inline void shim_waker_drain(int waker) {
    uint64_t value;
    while (read(waker, &value, sizeof(value)) > 0) {}
}

/*
 * Waits up to timeout_ms (-1: forever) and fills tokens/events with at most
 * `capacity` entries. Returns the count, 0 on timeout or EINTR, -1 on error.
 */
static inline int shim_poller_wait(int poller, uint64_t *tokens, uint32_t *events, int capacity, int timeout_ms) {
    struct epoll_event ready[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(poller, ready, capacity, timeout_ms);
    if (count < 0) return errno == EINTR ? 0 : -1;
    for (int i = 0; i < count; i++) {
        uint32_t flags = ready[i].events;
        uint32_t out = 0;
        if (flags & (EPOLLIN | EPOLLPRI)) out |= SHIM_EVENT_READABLE;
        if (flags & EPOLLOUT) out |= SHIM_EVENT_WRITABLE;
        if (flags & (EPOLLERR | EPOLLHUP | EPOLLRDHUP)) out |= SHIM_EVENT_HANGUP | SHIM_EVENT_READABLE;
        tokens[i] = ready[i].data.u64;
        events[i] = out;
    }
    return count;
}

#elif defined(__APPLE__)

static inline int shim_poller_create(int *waker) {
    int kq = kqueue();
    if (kq < 0) return -1;
    struct kevent change;
    EV_SET(&change, 0, EVFILT_USER, EV_ADD | EV_CLEAR, 0, 0, (void *)(uintptr_t)SHIM_WAKER_TOKEN);
    if (kevent(kq, &change, 1, NULL, 0, NULL) < 0) { close(kq); return -1; }
    fcntl(kq, F_SETFD, FD_CLOEXEC);
    *waker = kq;
    return kq;
}

static inline int shim_poller_add(int poller, int fd, uint64_t token) {
    struct kevent changes[2];
    EV_SET(&changes[0], fd, EVFILT_READ, EV_ADD | EV_CLEAR, 0, 0, (void *)(uintptr_t)token);
    EV_SET(&changes[1], fd, EVFILT_WRITE, EV_ADD | EV_CLEAR, 0, 0, (void *)(uintptr_t)token);
    return kevent(poller, changes, 2, NULL, 0, NULL);
}

static inline int shim_poller_add_listener(int poller, int fd, uint64_t token) {
    struct kevent change;
    EV_SET(&change, fd, EVFILT_READ, EV_ADD, 0, 0, (void *)(uintptr_t)token);
    return kevent(poller, &change, 1, NULL, 0, NULL);
}

static inline int shim_poller_remove(int poller, int fd) {
    struct kevent changes[2];
    EV_SET(&changes[0], fd, EVFILT_READ, EV_DELETE, 0, 0, NULL);
    EV_SET(&changes[1], fd, EVFILT_WRITE, EV_DELETE, 0, 0, NULL);
    kevent(poller, &changes[0], 1, NULL, 0, NULL);
    kevent(poller, &changes[1], 1, NULL, 0, NULL);
    return 0;
}

static inline int shim_waker_signal(int waker) {
    struct kevent change;
    EV_SET(&change, 0, EVFILT_USER, 0, NOTE_TRIGGER, 0, (void *)(uintptr_t)SHIM_WAKER_TOKEN);
    return kevent(waker, &change, 1, NULL, 0, NULL);
}

static inline void shim_waker_drain(int waker) { (void)waker; }

static inline int shim_poller_wait(int poller, uint64_t *tokens, uint32_t *events, int capacity, int timeout_ms) {
    struct kevent ready[256];
    if (capacity > 256) capacity = 256;
    struct timespec timeout;
    struct timespec *timeout_pointer = NULL;
    if (timeout_ms >= 0) {
        timeout.tv_sec = timeout_ms / 1000;
        timeout.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
        timeout_pointer = &timeout;
    }
    int count = kevent(poller, NULL, 0, ready, capacity, timeout_pointer);
    if (count < 0) return errno == EINTR ? 0 : -1;
    for (int i = 0; i < count; i++) {
        uint32_t out = 0;
        if (ready[i].filter == EVFILT_READ || ready[i].filter == EVFILT_USER) out |= SHIM_EVENT_READABLE;
        if (ready[i].filter == EVFILT_WRITE) out |= SHIM_EVENT_WRITABLE;
        if (ready[i].flags & (EV_EOF | EV_ERROR)) out |= SHIM_EVENT_HANGUP | SHIM_EVENT_READABLE;
        tokens[i] = (uint64_t)(uintptr_t)ready[i].udata;
        events[i] = out;
    }
    return count;
}

#endif

#endif
