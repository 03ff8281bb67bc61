/*
 * The bench's fixed-rate load generator (an open loop): request i is due at start + i / rate whatever
 * the answers before it do, and its latency counts from then, so a server stall shows in full. In C,
 * one thread with epoll, so that the generator's own pauses do not show as the server's latency. Prints
 * its usage when run without arguments, else one JSON line: request count, errors (not a whole 200),
 * p50, p99 and max in ms.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum reading { HEAD, BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILER };

struct connection {
  int fd;
  int busy;
  size_t sent;
  double due;
  enum reading state;
  int status;
  int chunked;
  long long remaining;
  char line[8192];
  size_t line_length;
};

static char *request;
static size_t request_length;
static struct sockaddr_in address;
static int epoll_fd;
static double measure_from, measure_until;
static double *latencies;
static size_t latency_count, latency_capacity;
static long errors;
// Requests answered or failed, warm-up included.
static long done;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void fail(const char *what) {
  perror(what);
  exit(2);
}

static void open_connection(struct connection *c) {
  c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (c->fd < 0) fail("socket");
  int one = 1;
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (connect(c->fd, (struct sockaddr *)&address, sizeof address) < 0 && errno != EINPROGRESS) fail("connect");
  struct epoll_event event = {.events = EPOLLIN | EPOLLOUT | EPOLLET, .data.ptr = c};
  if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, c->fd, &event) < 0) fail("epoll_ctl");
  c->busy = 0;
}

static void record(double due, int ok) {
  double finished = now_ms();
  if (!ok) errors += 1;
  if (due < measure_from || due >= measure_until) return;
  if (latency_count == latency_capacity) {
    latency_capacity = latency_capacity * 2 + 1024;
    latencies = realloc(latencies, latency_capacity * sizeof *latencies);
    if (latencies == NULL) fail("realloc");
  }
  latencies[latency_count++] = finished - due;
}

/* The request in flight fails: it is recorded, and the connection is opened anew. */
static void reset(struct connection *c) {
  if (c->busy) {
    record(c->due, 0);
    done += 1;
  }
  close(c->fd);
  open_connection(c);
}

static void write_request(struct connection *c) {
  while (c->sent < request_length) {
    ssize_t n = write(c->fd, request + c->sent, request_length - c->sent);
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR || errno == ENOTCONN) return;
      reset(c);
      return;
    }
    c->sent += (size_t)n;
  }
}

static void start(struct connection *c, double due) {
  c->busy = 1;
  c->due = due;
  c->sent = 0;
  c->state = HEAD;
  c->line_length = 0;
  c->status = 0;
  c->chunked = 0;
  c->remaining = 0;
  write_request(c);
}

/* A header line (without its CRLF); an empty line ends the head. */
static void header_line(struct connection *c) {
  char *line = c->line;
  line[c->line_length] = 0;
  if (c->status == 0) {
    c->status = strncmp(line, "HTTP/1.1 ", 9) == 0 ? atoi(line + 9) : -1;
  } else if (strncasecmp(line, "content-length:", 15) == 0) {
    c->remaining = atoll(line + 15);
  } else if (strncasecmp(line, "transfer-encoding:", 18) == 0 && strcasestr(line + 18, "chunked") != NULL) {
    c->chunked = 1;
  }
}

/* Reads what the socket holds; returns 1 when the answer in flight is complete. */
static int read_answer(struct connection *c, const char *data, size_t length) {
  size_t at = 0;
  while (at < length) {
    if (c->state == BODY || c->state == CHUNK_DATA) {
      size_t take = (size_t)c->remaining < length - at ? (size_t)c->remaining : length - at;
      c->remaining -= (long long)take;
      at += take;
      if (c->remaining > 0) continue;
      if (c->state == BODY) return 1;
      c->state = CHUNK_END;
      continue;
    }
    char byte = data[at++];
    if (byte != '\n') {
      if (byte != '\r' && c->line_length < sizeof c->line - 1) c->line[c->line_length++] = byte;
      continue;
    }
    size_t line_length = c->line_length;
    c->line[line_length] = 0;
    c->line_length = 0;
    switch (c->state) {
      case HEAD:
        if (line_length > 0) {
          c->line_length = line_length;
          header_line(c);
          c->line_length = 0;
          break;
        }
        if (c->status == 0) break;
        if (c->chunked) {
          c->state = CHUNK_SIZE;
        } else if (c->remaining > 0) {
          c->state = BODY;
        } else {
          return 1;
        }
        break;
      case CHUNK_SIZE:
        c->remaining = strtoll(c->line, NULL, 16);
        c->state = c->remaining > 0 ? CHUNK_DATA : TRAILER;
        break;
      case CHUNK_END:
        c->state = CHUNK_SIZE;
        break;
      case TRAILER:
        if (line_length == 0) return 1;
        break;
      default:
        break;
    }
  }
  return 0;
}

static int by_value(const void *left, const void *right) {
  double a = *(const double *)left, b = *(const double *)right;
  return a < b ? -1 : a > b;
}

int main(int argc, char **argv) {
  if (argc < 9) {
    fprintf(stderr, "usage: open-loop <host> <port> <path> <body file> <rate/s> <warm s> <seconds> <connections> [header]...\n");
    return 2;
  }
  const char *host = argv[1];
  int port = atoi(argv[2]);
  const char *path = argv[3];
  double rate = atof(argv[5]), warm = atof(argv[6]), seconds = atof(argv[7]);
  int connection_count = atoi(argv[8]);
  if (!(rate > 0) || !(seconds > 0) || warm < 0 || connection_count < 1) {
    fprintf(stderr, "open-loop: rate, seconds and connections must be above 0\n");
    return 2;
  }

  FILE *body_file = fopen(argv[4], "rb");
  if (body_file == NULL) fail(argv[4]);
  fseek(body_file, 0, SEEK_END);
  long body_length = ftell(body_file);
  fseek(body_file, 0, SEEK_SET);
  size_t headers_length = 0;
  for (int index = 9; index < argc; index += 1) headers_length += strlen(argv[index]) + 2;
  request = malloc(strlen(path) + strlen(host) + headers_length + (size_t)body_length + 256);
  if (request == NULL) fail("malloc");
  int head = sprintf(request, "POST %s HTTP/1.1\r\nhost: %s:%d\r\ncontent-length: %ld\r\n", path, host, port, body_length);
  for (int index = 9; index < argc; index += 1) head += sprintf(request + head, "%s\r\n", argv[index]);
  head += sprintf(request + head, "\r\n");
  if (fread(request + head, 1, (size_t)body_length, body_file) != (size_t)body_length) fail("fread");
  fclose(body_file);
  request_length = (size_t)head + (size_t)body_length;

  address.sin_family = AF_INET;
  address.sin_port = htons((uint16_t)port);
  if (inet_pton(AF_INET, host, &address.sin_addr) != 1) {
    fprintf(stderr, "open-loop: %s is not an IPv4 address\n", host);
    return 2;
  }
  // The kernel's default 50 us of timer slack would be latency the server did not add.
  prctl(PR_SET_TIMERSLACK, 1UL);
  epoll_fd = epoll_create1(0);
  if (epoll_fd < 0) fail("epoll_create1");
  struct connection *connections = calloc((size_t)connection_count, sizeof *connections);
  if (connections == NULL) fail("calloc");
  for (int index = 0; index < connection_count; index += 1) open_connection(&connections[index]);

  long total = (long)((warm + seconds) * rate);
  double interval = 1e3 / rate;
  // Requests due while every connection was busy, by their due time (a ring of the schedule's indexes).
  long *waiting = malloc((size_t)total * sizeof *waiting);
  if (waiting == NULL) fail("malloc");
  long waiting_first = 0, waiting_last = 0, next = 0;
  double started = now_ms() + 50;
  measure_from = started + warm * 1e3;
  measure_until = measure_from + seconds * 1e3;
  int idle_from = 0, precise = 1;
  static char buffer[262144];
  struct epoll_event events[256];

  while (done < total) {
    double time = now_ms();
    while (next < total && started + next * interval <= time) waiting[waiting_last++] = next++;
    // Hand waiting requests to idle connections, oldest first; round-robin so every connection is used.
    for (int scanned = 0; scanned < connection_count && waiting_first < waiting_last; scanned += 1) {
      struct connection *c = &connections[(idle_from + scanned) % connection_count];
      if (c->busy) continue;
      start(c, started + waiting[waiting_first++] * interval);
      idle_from = (idle_from + scanned + 1) % connection_count;
    }
    // Woken at the next request's due time to the microsecond, not the millisecond epoll_wait takes.
    double wait = next < total ? started + next * interval - now_ms() : 100;
    if (wait < 0) wait = 0;
    struct timespec timeout = {.tv_sec = (time_t)(wait / 1e3), .tv_nsec = (long)((wait - (time_t)(wait / 1e3) * 1e3) * 1e6)};
    int ready = precise ? epoll_pwait2(epoll_fd, events, 256, &timeout, NULL) : epoll_wait(epoll_fd, events, 256, (int)wait);
    if (ready < 0 && errno == ENOSYS) {
      // Kernels before 5.11: whole milliseconds, rounded down, then a spin to the due time.
      precise = 0;
      continue;
    }
    if (ready < 0 && errno != EINTR) fail("epoll_wait");
    if (time > measure_until + 30e3) break;
    for (int index = 0; index < ready; index += 1) {
      struct connection *c = events[index].data.ptr;
      if (events[index].events & (EPOLLERR | EPOLLHUP)) {
        reset(c);
        continue;
      }
      if (c->busy && c->sent < request_length) write_request(c);
      if (!(events[index].events & EPOLLIN)) continue;
      for (;;) {
        ssize_t n = read(c->fd, buffer, sizeof buffer);
        if (n <= 0) {
          if (n < 0 && (errno == EAGAIN || errno == EINTR)) break;
          reset(c);
          break;
        }
        if (c->busy && read_answer(c, buffer, (size_t)n)) {
          c->busy = 0;
          done += 1;
          record(c->due, c->status == 200);
        }
      }
    }
  }

  // Still unanswered 30 s after the end (a server that hangs): each one an error.
  for (int index = 0; index < connection_count; index += 1) errors += connections[index].busy;
  errors += waiting_last - waiting_first + (total - next);
  qsort(latencies, latency_count, sizeof *latencies, by_value);
  double p50 = latency_count ? latencies[latency_count / 2] : 0;
  double p99 = latency_count ? latencies[(size_t)(latency_count * 0.99)] : 0;
  double max = latency_count ? latencies[latency_count - 1] : 0;
  printf("{\"requests\":%zu,\"errors\":%ld,\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f}\n", latency_count, errors, p50, p99, max);
  return 0;
}
