/* kiosk-freeze-thread: stops one thread of a running process and leaves the others running, so a
 * VM scenario can hang the kiosk's event loop (its main thread) in the binary that ships, with
 * no test hook compiled in: if anything but the loop sent WATCHDOG=1, systemd would not notice.
 *
 *   kiosk-freeze-thread PID [TID]      TID defaults to PID (the main thread)
 *
 * Attaches with PTRACE_SEIZE (the thread alone; ptrace is per thread) and PTRACE_INTERRUPT, says
 * on stdout which thread stopped and how many others go on, then keeps it stopped until a
 * SIGABRT (systemd's watchdog) is pending for the process: a stopped thread cannot take it, and
 * the other threads block it, so the thread is let go to take it, as a loop that hangs while
 * running would. Exit 0 once the process is gone, 1 if the thread could not be stopped. Needs
 * CAP_SYS_PTRACE over the process (root in the guest). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int count_threads(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

static void thread_name(pid_t pid, pid_t tid, char *out, size_t size) {
    char path[96];
    snprintf(path, sizeof path, "/proc/%d/task/%d/comm", (int)pid, (int)tid);
    FILE *f = fopen(path, "r");
    out[0] = 0;
    if (!f) return;
    if (fgets(out, (int)size, f)) out[strcspn(out, "\n")] = 0;
    fclose(f);
}

/* Whether signal sig is pending for the process (ShdPnd) or the thread (SigPnd). */
static int pending(pid_t pid, pid_t tid, int sig) {
    char path[96], line[256];
    snprintf(path, sizeof path, "/proc/%d/task/%d/status", (int)pid, (int)tid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "ShdPnd:", 7) == 0 || strncmp(line, "SigPnd:", 7) == 0) {
            unsigned long long mask = strtoull(line + 7, NULL, 16);
            if (mask & (1ULL << (sig - 1))) found = 1;
        }
    }
    fclose(f);
    return found;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: kiosk-freeze-thread PID [TID]\n");
        return 2;
    }
    pid_t pid = (pid_t)atoi(argv[1]);
    pid_t tid = argc == 3 ? (pid_t)atoi(argv[2]) : pid;
    if (ptrace(PTRACE_SEIZE, tid, 0, 0) != 0) {
        fprintf(stderr, "kiosk-freeze-thread: PTRACE_SEIZE %d: %s\n", (int)tid, strerror(errno));
        return 1;
    }
    if (ptrace(PTRACE_INTERRUPT, tid, 0, 0) != 0) {
        fprintf(stderr, "kiosk-freeze-thread: PTRACE_INTERRUPT %d: %s\n", (int)tid, strerror(errno));
        return 1;
    }
    int st;
    if (waitpid(tid, &st, __WALL) != tid || !WIFSTOPPED(st)) {
        fprintf(stderr, "kiosk-freeze-thread: thread %d did not stop\n", (int)tid);
        return 1;
    }
    char name[32];
    thread_name(pid, tid, name, sizeof name);
    printf("frozen thread %d (%s) of process %d; %d other thread(s) run on\n", (int)tid, name, (int)pid,
           count_threads(pid) - 1);
    fflush(stdout);
    /* Every later stop is left as it is, until the watchdog's SIGABRT is pending. */
    for (;;) {
        pid_t r = waitpid(tid, &st, __WALL | WNOHANG);
        if (r == tid && (WIFEXITED(st) || WIFSIGNALED(st))) break;
        if (r < 0 && errno != EINTR) break;
        if (pending(pid, tid, SIGABRT)) {
            printf("SIGABRT pending: thread %d let go to take it\n", (int)tid);
            fflush(stdout);
            ptrace(PTRACE_DETACH, tid, 0, 0);
            while (kill(pid, 0) == 0) usleep(50 * 1000);
            break;
        }
        usleep(50 * 1000);
    }
    printf("process %d is gone\n", (int)pid);
    return 0;
}
