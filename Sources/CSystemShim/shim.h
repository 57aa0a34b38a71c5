#ifndef BETACTL_SYSTEM_SHIM_H
#define BETACTL_SYSTEM_SHIM_H
/* Linux-only kernel interfaces that Glibc's Swift module does not export. */
#if defined(__linux__)
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/sendfile.h>
#endif
#endif
