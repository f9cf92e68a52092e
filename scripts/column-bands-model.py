#!/usr/bin/env python3
"""The model of docs/column-bands.md: Wythoff N x N streamed as a summary by K ranks that split
the table into blocks (row bands of H rows x column bands of N/C columns), the line summaries
split by column band. Prints time and memory per rank; every input is a measured figure of
BENCHMARKS.md (issue 16) or an assumption stated in the document.

    scripts/column-bands-model.py
"""
import math

# Measured (BENCHMARKS.md, issue 16): ns per Wythoff cell, 170 at 16000 and x1.55 per doubling
# of N from 8000 to 16000; a column's or diagonal's summary is about 0.094 N bytes.
def ns_per_cell(n):
    return 170 * 1.55 ** math.log2(n / 16000)

SUMMARY_BYTES_PER_N = 0.094
# Assumed: nodes of 32 cores and 128 GB, 4 ranks of 8 threads each, 12.5 GB/s a node, traffic
# overlapped with computing; cells held as u16 while a block is computed.
RANKS_PER_NODE, THREADS_PER_RANK, LINK = 4, 8, 12.5e9
CELL_BYTES = 2


def model(n, nodes, column_bands, rows):
    ranks = nodes * RANKS_PER_NODE
    pipeline = ranks // column_bands  # ranks along the rows of one column band
    width = n / column_bands
    summary = SUMMARY_BYTES_PER_N * n
    cost = ns_per_cell(n) * 1e-9
    block_seconds = rows * width * cost / THREADS_PER_RANK
    row_bands = n / rows
    blocks_per_rank = row_bands * column_bands / ranks
    # A block waits for the one above and the one to its left: the wavefront fills in
    # (column bands + pipeline ranks) blocks, then every rank works.
    seconds = (blocks_per_rank + column_bands + pipeline - 2) * block_seconds
    memory = 2 * width * summary + 2 * rows * summary + rows * width * CELL_BYTES
    # Down: a column and a diagonal summary per column per row band; right: a row and a
    # diagonal summary per row per column band; plus the rows rank 0 sums (4 numbers a band).
    traffic = n * n * (2 * summary / rows + 2 * summary / width)
    network_seconds = traffic / nodes / LINK
    return ranks, pipeline, max(seconds, network_seconds), memory, traffic / nodes, network_seconds


def main():
    print("| N | nodes (ranks) | column bands × pipeline | rows a band | time | memory a rank | traffic a node |")
    print("|---|---|---|---|---|---|---|")
    for n in (10**5, 10**6):
        for nodes in (16, 64, 256):
            best = None
            for column_bands in (4, 8, 16, 32, 64, 128, 256):
                if column_bands > nodes * RANKS_PER_NODE:
                    continue
                for rows in (256, 512, 1024, 2048, 4096):
                    ranks, pipeline, seconds, memory, traffic, _ = model(n, nodes, column_bands, rows)
                    if memory > 128e9 / RANKS_PER_NODE:
                        continue
                    if best is None or seconds < best[0]:
                        best = (seconds, ranks, column_bands, pipeline, rows, memory, traffic)
            seconds, ranks, column_bands, pipeline, rows, memory, traffic = best
            print(f"| 10^{round(math.log10(n))} | {nodes} ({ranks}) | {column_bands} × {pipeline} | {rows} "
                  f"| {seconds / 60:.1f} min | {memory / 1e9:.2f} GB | {traffic / 1e12:.2f} TB |")


if __name__ == "__main__":
    main()
