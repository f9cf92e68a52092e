/* Plain single-thread C loops for the board workloads of scripts/bench-boards.sh (issue 33): the
 * baseline grundy's two threads are measured against, side by side. Each fills the whole table in
 * row-major order, the way one would write it by hand (a table of the narrowest cells that hold
 * the values, a mex by stamps so nothing is cleared per cell, symmetric pairs read once), and
 * prints the sum of the values, which the script checks against grundy's summary.
 *
 *   board-loops GAME N      the table of `grundy compute GAME --size NxN`: cutting (w, h in
 *                           2..=N), wythoff (0..=N), kiki and prime-steps (1..=N)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint16_t cell;

static unsigned long long sum_of(const cell *t, size_t cells) {
  unsigned long long sum = 0;
  for (size_t k = 0; k < cells; k++) sum += t[k];
  return sum;
}

/* The smallest value not stamped with `now`: the mex of the options just stamped. */
static cell mex_of_stamped(const uint32_t *stamp, uint32_t now) {
  cell v = 0;
  while (stamp[v] == now) v++;
  return v;
}

/* The cutting game: a cut leaves two pieces of at least 2 on the cut axis. */
static unsigned long long cutting(long n) {
  long side = n - 1; /* w, h in 2..=n */
  cell *t = calloc((size_t)side * side, sizeof(cell));
  uint32_t *stamp = calloc(1 << 16, sizeof(uint32_t));
  uint32_t now = 0;
#define AT(w, h) t[((w) - 2) * side + ((h) - 2)]
  for (long w = 2; w <= n; w++)
    for (long h = 2; h <= n; h++) {
      now++;
      for (long a = 2; a <= w / 2; a++) stamp[AT(a, h) ^ AT(w - a, h)] = now;
      for (long b = 2; b <= h / 2; b++) stamp[AT(w, b) ^ AT(w, h - b)] = now;
      AT(w, h) = mex_of_stamped(stamp, now);
    }
  unsigned long long sum = sum_of(t, (size_t)side * side);
  free(t);
  free(stamp);
  return sum;
}

/* Wythoff's game: a bit set of the values seen on each row, column and diagonal so far. */
static unsigned long long wythoff(long n) {
  long side = n + 1, words = (2 * side + 64) / 64;
  cell *t = calloc((size_t)side * side, sizeof(cell));
  uint64_t *row = calloc(words, 8), *cols = calloc((size_t)side * words, 8);
  uint64_t *diags = calloc((size_t)(2 * side) * words, 8);
  for (long a = 0; a < side; a++) {
    memset(row, 0, words * 8);
    for (long b = 0; b < side; b++) {
      uint64_t *col = cols + b * words, *diag = diags + (b - a + side) * words;
      long w = 0;
      uint64_t free_bits;
      while ((free_bits = ~(row[w] | col[w] | diag[w])) == 0) w++;
      long v = w * 64 + __builtin_ctzll(free_bits);
      t[a * side + b] = (cell)v;
      row[v / 64] |= 1ull << (v % 64);
      col[v / 64] |= 1ull << (v % 64);
      diag[v / 64] |= 1ull << (v % 64);
    }
  }
  unsigned long long sum = sum_of(t, (size_t)side * side);
  free(t);
  free(row);
  free(cols);
  free(diags);
  return sum;
}

/* Kiki's game: one step left, down or diagonally (values 0..3). */
static unsigned long long kiki(long n) {
  long side = n;
  unsigned char *t = malloc((size_t)side * side);
  unsigned long long sum = 0;
  for (long i = 0; i < side; i++)
    for (long j = 0; j < side; j++) {
      unsigned mask = 0;
      if (i) mask |= 1u << t[(i - 1) * side + j];
      if (j) mask |= 1u << t[i * side + j - 1];
      if (i && j) mask |= 1u << t[(i - 1) * side + j - 1];
      unsigned char v = __builtin_ctz(~mask);
      t[i * side + j] = v;
      sum += v;
    }
  free(t);
  return sum;
}

/* The prime-step board: down, right or diagonally by a prime number of cells. */
static unsigned long long prime_steps(long n) {
  long side = n; /* n, m in 1..=n */
  char *composite = calloc(side + 1, 1);
  long *primes = malloc(sizeof(long) * (side + 1)), count = 0;
  for (long p = 2; p <= side; p++) {
    if (composite[p]) continue;
    primes[count++] = p;
    for (long q = p * p; q <= side; q += p) composite[q] = 1;
  }
  cell *t = calloc((size_t)side * side, sizeof(cell));
  uint32_t *stamp = calloc(1 << 16, sizeof(uint32_t));
  uint32_t now = 0;
  for (long i = 0; i < side; i++)
    for (long j = 0; j < side; j++) {
      now++;
      for (long k = 0; k < count && primes[k] <= i; k++) {
        long p = primes[k];
        stamp[t[(i - p) * side + j]] = now;
        if (p <= j) stamp[t[(i - p) * side + j - p]] = now;
      }
      for (long k = 0; k < count && primes[k] <= j; k++) stamp[t[i * side + j - primes[k]]] = now;
      t[i * side + j] = mex_of_stamped(stamp, now);
    }
  unsigned long long sum = sum_of(t, (size_t)side * side);
  free(t);
  free(stamp);
  free(primes);
  free(composite);
  return sum;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: board-loops cutting|wythoff|kiki|prime-steps N\n");
    return 2;
  }
  long n = atol(argv[2]);
  const char *game = argv[1];
  unsigned long long sum;
  if (!strcmp(game, "cutting")) sum = cutting(n);
  else if (!strcmp(game, "wythoff")) sum = wythoff(n);
  else if (!strcmp(game, "kiki")) sum = kiki(n);
  else if (!strcmp(game, "prime-steps")) sum = prime_steps(n);
  else {
    fprintf(stderr, "board-loops: unknown game %s\n", game);
    return 2;
  }
  printf("%llu\n", sum);
  return 0;
}
