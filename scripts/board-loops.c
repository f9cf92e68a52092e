/* Plain single-thread C loops for the board workloads of scripts/bench-boards.sh (issue 33): the
 * baseline grundy's two threads are measured against, side by side. Each is what a competent
 * hand-written loop does: a row-major fill of a table of the narrowest cells that hold the
 * values, the options' values marked in a word (stamps above 63, so nothing is cleared per cell),
 * pieces read from consecutive cells, a symmetric table computed by halves, and Wythoff's mex
 * searched from the lines' own mexes. Each prints the sum of the values, which the script checks
 * against grundy's summary.
 *
 *   board-loops GAME N      the table of `grundy compute GAME --size NxN`: cutting (w, h in
 *                           2..=N), wythoff (0..=N), kiki and prime-steps (1..=N)
 *   board-loops wythoff-thin R C
 *                           `grundy compute wythoff --size RxC` for a thin board (R small): a
 *                           seen-window per row, the column and diagonal read from the table
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

/* The values of one cell's options: those below 64 as bits of one word, larger ones stamped with
 * the cell's number, so nothing is cleared per cell. */
struct marks {
  uint64_t low;
  uint32_t now, *stamp;
};

static inline void mark(struct marks *m, unsigned x) {
  if (x < 64) m->low |= 1ull << x;
  else m->stamp[x] = m->now;
}

/* The smallest value not marked; the next cell's marks start empty. */
static inline unsigned mex_and_next(struct marks *m) {
  unsigned v;
  if (~m->low) {
    v = __builtin_ctzll(~m->low);
  } else {
    v = 64;
    while (m->stamp[v] == m->now) v++;
  }
  m->low = 0;
  m->now++;
  return v;
}

static struct marks marks_new(size_t values) {
  struct marks m = {0, 1, calloc(values, sizeof(uint32_t))};
  return m;
}

/* The cutting game: a cut leaves two pieces of at least 2 on the cut axis. Its values are small
 * (at most 9 up to 3000x3000), so cells are bytes. The table is symmetric, so only w >= h is
 * computed and each value is written to both (w, h) and (h, w): then both kinds of cut read their
 * pieces from consecutive cells of one row, (a, h) being (h, a). */
static unsigned long long cutting(long n) {
  long side = n - 1; /* w, h in 2..=n, at index w - 2, h - 2 */
  uint8_t *t = calloc((size_t)side * side, 1);
  struct marks m = marks_new(256);
  for (long w = 0; w < side; w++)
    for (long h = 0; h <= w; h++) {
      const uint8_t *row_w = t + w * side, *row_h = t + h * side;
      /* Pieces a and w - a (both >= 2) are cells (a, h) = (h, a) at indices a - 2, w - a - 2. */
      for (long a = 0; a <= w - 2 - a; a++) mark(&m, row_h[a] ^ row_h[w - 2 - a]);
      for (long b = 0; b <= h - 2 - b; b++) mark(&m, row_w[b] ^ row_w[h - 2 - b]);
      t[w * side + h] = t[h * side + w] = (uint8_t)mex_and_next(&m);
    }
  unsigned long long sum = 0;
  for (size_t k = 0; k < (size_t)side * side; k++) sum += t[k];
  free(t);
  free(m.stamp);
  return sum;
}

/* Wythoff's game: a bit set of the values seen on each row, column and diagonal so far, and for
 * each line the first word not yet full. Every line holds all values below its own first free
 * word, so the search for the mex of the three starts at the largest of the three. */
static unsigned long long wythoff(long n) {
  long side = n + 1, words = (2 * side + 64) / 64;
  cell *t = calloc((size_t)side * side, sizeof(cell));
  uint64_t *row = calloc(words, 8), *cols = calloc((size_t)side * words, 8);
  uint64_t *diags = calloc((size_t)(2 * side) * words, 8);
  long *col_free = calloc(side, sizeof(long)), *diag_free = calloc(2 * side, sizeof(long));
  for (long a = 0; a < side; a++) {
    memset(row, 0, words * 8);
    long row_free = 0;
    for (long b = 0; b < side; b++) {
      long d = b - a + side;
      uint64_t *col = cols + b * words, *diag = diags + d * words;
      long w = row_free;
      if (col_free[b] > w) w = col_free[b];
      if (diag_free[d] > w) w = diag_free[d];
      uint64_t free_bits;
      while ((free_bits = ~(row[w] | col[w] | diag[w])) == 0) w++;
      long v = w * 64 + __builtin_ctzll(free_bits);
      t[a * side + b] = (cell)v;
      uint64_t bit = 1ull << (v % 64);
      row[v / 64] |= bit;
      col[v / 64] |= bit;
      diag[v / 64] |= bit;
      while (row[row_free] == ~0ull) row_free++;
      while (col[col_free[b]] == ~0ull) col_free[b]++;
      while (diag[diag_free[d]] == ~0ull) diag_free[d]++;
    }
  }
  unsigned long long sum = sum_of(t, (size_t)side * side);
  free(t);
  free(row);
  free(cols);
  free(diags);
  free(col_free);
  free(diag_free);
  return sum;
}

/* Wythoff's game on a thin board, rows 0..=r and columns 0..=c with r small (issue 52): column by
 * column, each row keeps a bit set of the values it has seen with the first word not yet full,
 * and the cell's column and diagonal (at most r cells each) are read from the table, which is
 * kept whole, as the engine keeps it. */
static unsigned long long wythoff_thin(long r, long c) {
  long rows = r + 1, cols = c + 1, words = (cols + rows + 64) / 64 + 1;
  uint32_t *t = calloc((size_t)rows * cols, sizeof(uint32_t));
  uint64_t *seen = calloc((size_t)rows * words, 8);
  long *first_free = calloc(rows, sizeof(long));
  uint32_t near[128];
  unsigned long long sum = 0;
  for (long b = 0; b < cols; b++)
    for (long a = 0; a < rows; a++) {
      uint64_t *row = seen + a * words;
      long count = 0;
      for (long k = 1; k <= a; k++) near[count++] = t[(a - k) * cols + b];
      for (long k = 1; k <= a && k <= b; k++) near[count++] = t[(a - k) * cols + b - k];
      long v = first_free[a] * 64;
      for (;;) {
        while (row[v / 64] >> (v % 64) & 1) v++;
        long k = 0;
        while (k < count && near[k] != (uint32_t)v) k++;
        if (k == count) break;
        v++;
      }
      t[a * cols + b] = (uint32_t)v;
      sum += (unsigned long long)v;
      row[v / 64] |= 1ull << (v % 64);
      while (row[first_free[a]] == ~0ull) first_free[a]++;
    }
  free(t);
  free(seen);
  free(first_free);
  return sum;
}

/* Kiki's game: one step left, down or diagonally (values 0..3). The row's last value stays in a
 * register rather than being read back from the cell just written. */
static unsigned long long kiki(long n) {
  long side = n;
  unsigned char *t = malloc((size_t)side * side);
  unsigned long long sum = 0;
  for (long i = 0; i < side; i++) {
    unsigned char *row = t + i * side;
    const unsigned char *above = row - side;
    unsigned left = 0;
    for (long j = 0; j < side; j++) {
      unsigned mask = 0;
      if (i) mask |= 1u << above[j];
      if (j) mask |= 1u << left;
      if (i && j) mask |= 1u << above[j - 1];
      left = __builtin_ctz(~mask);
      row[j] = (unsigned char)left;
      sum += left;
    }
  }
  free(t);
  return sum;
}

/* The prime-step board: down, right or diagonally by a prime number of cells. The table is
 * symmetric, so only i >= j is computed and each value written to both (i, j) and (j, i): the
 * moves down then read row j, (i - p, j) being (j, i - p). */
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
  struct marks m = marks_new(1 << 16);
  for (long i = 0; i < side; i++)
    for (long j = 0; j <= i; j++) {
      const cell *row_i = t + i * side, *row_j = t + j * side;
      for (long k = 0; k < count && primes[k] <= i; k++) {
        long p = primes[k];
        mark(&m, row_j[i - p]);
        if (p <= j) mark(&m, t[(i - p) * side + j - p]);
      }
      for (long k = 0; k < count && primes[k] <= j; k++) mark(&m, row_i[j - primes[k]]);
      t[i * side + j] = t[j * side + i] = (cell)mex_and_next(&m);
    }
  unsigned long long sum = sum_of(t, (size_t)side * side);
  free(t);
  free(m.stamp);
  free(primes);
  free(composite);
  return sum;
}

int main(int argc, char **argv) {
  if (argc == 4 && !strcmp(argv[1], "wythoff-thin")) {
    printf("%llu\n", wythoff_thin(atol(argv[2]), atol(argv[3])));
    return 0;
  }
  if (argc != 3) {
    fprintf(stderr, "usage: board-loops cutting|wythoff|kiki|prime-steps N, or board-loops wythoff-thin R C\n");
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
