// Linux-only system calls the HTTP server's event loop needs and Glibc's Swift module omits.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
// accept4 is declared only under _GNU_SOURCE; declare it so Swift can call it.
extern int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags);
#endif
