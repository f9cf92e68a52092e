/* The C loop that `grundy check` is measured against (BENCHMARKS.md, "One evaluator, compiled (issue 62)"):
 * read a 2-D numpy table of u8, u16 or u32 values, evaluate one claim on every cell, count the
 * disagreements. The claim is compiled in, as a hand-written check would be:
 *
 *   check_loop nim FILE.npy      --values "xor(i, j)"
 *   check_loop wythoff FILE.npy  --p-set  "min(i, j) == floor(abs(i - j) * phi)"
 *   check_loop kiki FILE.npy     --p-set  "i % 2 == 1 && j % 2 == 1"   (the table from 1)
 *
 * Built with `cc -O2 ... -lm` by scripts/bench-check.sh; one thread, as a plain loop is. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PHI = 1.618033988749895;

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: check_loop nim|wythoff|kiki FILE.npy\n");
        return 2;
    }
    FILE *f = fopen(argv[2], "rb");
    if (!f) {
        perror(argv[2]);
        return 2;
    }
    unsigned char magic[10];
    if (fread(magic, 1, 10, f) != 10 || memcmp(magic, "\x93NUMPY", 6) != 0) {
        fprintf(stderr, "%s: not a numpy file\n", argv[2]);
        return 2;
    }
    size_t header_len = magic[8] | (magic[9] << 8);
    char *header = calloc(header_len + 1, 1);
    if (fread(header, 1, header_len, f) != header_len) return 2;
    int width = strstr(header, "u1") ? 1 : strstr(header, "<u2") ? 2 : strstr(header, "<u4") ? 4 : 0;
    long rows = 0, cols = 0;
    char *shape = strstr(header, "'shape': (");
    if (!width || !shape || sscanf(shape, "'shape': (%ld, %ld)", &rows, &cols) != 2) {
        fprintf(stderr, "%s: want a 2-D u1, <u2 or <u4 array\n", argv[2]);
        return 2;
    }
    size_t cells = (size_t)rows * (size_t)cols;
    void *data = malloc(cells * width);
    if (fread(data, width, cells, f) != cells) {
        fprintf(stderr, "%s: short file\n", argv[2]);
        return 2;
    }
    int claim = strcmp(argv[1], "nim") == 0 ? 0 : strcmp(argv[1], "wythoff") == 0 ? 1 : 2;
    long min = claim == 2 ? 1 : 0; /* kiki's table starts at (1, 1) */
    unsigned long long disagreements = 0;
    for (long r = 0; r < rows; r++) {
        for (long c = 0; c < cols; c++) {
            size_t k = (size_t)r * cols + c;
            uint32_t g = width == 1   ? ((uint8_t *)data)[k]
                         : width == 2 ? ((uint16_t *)data)[k]
                                      : ((uint32_t *)data)[k];
            long i = r + min, j = c + min;
            int agrees;
            if (claim == 0) {
                agrees = g == (uint32_t)(i ^ j);
            } else if (claim == 1) {
                long lo = i < j ? i : j;
                int p = lo == (long)floor(labs(i - j) * PHI);
                agrees = p == (g == 0);
            } else {
                int p = i % 2 == 1 && j % 2 == 1;
                agrees = p == (g == 0);
            }
            disagreements += !agrees;
        }
    }
    printf("%llu disagreements in %zu cells\n", disagreements, cells);
    return disagreements != 0;
}
