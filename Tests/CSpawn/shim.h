// What the tests' child-process launcher needs from glibc and Glibc's Swift module omits
// (declared only under _GNU_SOURCE, or in headers the module leaves out).
#ifdef __linux__
#include <spawn.h>
#include <signal.h>
#include <sys/types.h>
// glibc 2.34+: close every descriptor from `from` up in the child (close_range under the hood).
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
// glibc 2.29+: change directory in the child before exec.
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
// Linux: a pipe whose ends are close-on-exec from the start.
extern int pipe2(int fds[2], int flags);
// glibc 2.36+, Linux 5.3+: a descriptor for the child that becomes readable when it exits,
// and signals sent through it can never reach a recycled process ID.
extern int pidfd_open(pid_t pid, unsigned int flags);
extern int pidfd_send_signal(int pidfd, int sig, siginfo_t *info, unsigned int flags);
#endif
