//! The bad-input matrix: every subcommand, fed broken games, sizes, spec files, CSV tables,
//! expressions, checkpoints and outputs. Each case must exit with code 2 and one line on standard
//! error that names the problem, without a panic, and must leave the working directory exactly as
//! it was: no partial output, no temporary file, existing outputs intact.

use crate::common;

use common::grundy;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// The files every case starts with, in its own working directory.
const FIXTURES: &[(&str, &str)] = &[
    ("existing.csv", "precious\n"),
    (
        "far.toml",
        "name = \"far\"\naxes = [{ name = \"n\", min = 0 }, { name = \"m\", min = 0 }]\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-9223372036854775807, -9223372036854775807]]\n",
    ),
    ("existing.png", "precious picture\n"),
    ("ragged.csv", "n\\m,1,2\n1,0,1\n2,1\n"),
    ("not-numbers.csv", "n\\m,1,2\n1,0,x\n2,1,2\n"),
    ("negative.csv", "n,g\n0,0\n1,-1\n"),
    ("empty.csv", ""),
    ("wrong-header.csv", "foo,bar\n1,2\n"),
    ("gaps.csv", "n,g\n0,0\n2,1\n"),
    ("repeated.csv", "n,m,g\n1,1,0\n1,2,1\n1,1,0\n1,2,1\n"),
    ("pn.csv", "n\\m,1,2\n1,P,N\n2,N,N\n"),
    ("not-gzip.csv.gz", "n,g\n0,0\n"),
    ("syntax.toml", "name = \"x\"\naxes = [\n"),
    (
        "kind.toml",
        "name = \"x\"\naxes = [{ name = \"n\", min = 0 }]\n[[rules]]\nkind = \"teleport\"\n",
    ),
    (
        "raise.toml",
        "name = \"x\"\naxes = [{ name = \"n\", min = 0 }, { name = \"m\", min = 0 }]\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-2, 1]]\n",
    ),
    (
        "field.toml",
        "name = \"x\"\naxes = [{ name = \"n\", min = 0 }]\ncolour = \"red\"\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-1]]\n",
    ),
    (
        "steps.toml",
        "name = \"x\"\naxes = [{ name = \"n\", min = 0 }]\n\
         [[rules]]\nkind = \"jump\"\ndirections = [[-1]]\nsteps = \"5..=2\"\n",
    ),
    ("garbage.ckpt", "this is not a checkpoint\n"),
    ("bad.parquet", "PAR1 this is not really parquet PAR1"),
    ("gaps.b", "0 0\n2 1\n"),
    (
        "escape.toml",
        "name = \"a\\u001b[2Jb\"\naxes = [{ name = \"n\", min = 0 }]\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-1]]\n",
    ),
    (
        "same-name.toml",
        "name = \"same\"\naxes = [{ name = \"n\", min = 0 }]\n\n[parameters]\nk = \"1..=2\"\n\n\
         [[rules]]\nkind = \"jump\"\ndirections = [[-1]]\nsteps = \"1..={k}\"\n",
    ),
    (
        "huge-jump.toml",
        "name = \"huge\"\naxes = [{ name = \"n\", min = 0 }]\n\
         [[rules]]\nkind = \"jump\"\ndirections = [[-4611686018427387904]]\nsteps = [4]\n",
    ),
    (
        "misere.toml",
        "name = \"misere-steps\"\nplay = \"misere\"\naxes = [{ name = \"n\", min = 0 }]\n\
         [[rules]]\nkind = \"jump\"\ndirections = [[-1]]\nsteps = [1, 2]\n",
    ),
    (
        "raise-unbounded.toml",
        "name = \"up\"\naxes = [{ name = \"n\", min = 0 }]\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-1], [1]]\n",
    ),
    (
        "max-below.toml",
        "name = \"below\"\naxes = [{ name = \"n\", min = 5, max = 3 }]\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-1]]\n",
    ),
    (
        "loopy-board.toml",
        "name = \"loopy-board\"\naxes = [{ name = \"n\", min = 0, max = 7 }, \
         { name = \"m\", min = 0, max = 7 }]\n[[rules]]\nkind = \"step\"\n\
         offsets = [[-1, 0], [0, -1], [1, -1], [-1, 1]]\n",
    ),
    (
        "loopy-play.toml",
        "name = \"x\"\nplay = \"loopy\"\naxes = [{ name = \"n\", min = 0 }]\n\
         [[rules]]\nkind = \"jump\"\ndirections = [[-1]]\nsteps = [1]\n",
    ),
];

/// `(arguments, text the error line must contain)`.
const CASES: &[(&[&str], &str)] = &[
    // Unknown games, subcommands and options.
    (
        &["compute", "chess", "--size", "5"],
        "unknown game `chess` (known games: cutting, cutting-cuboid",
    ),
    (&["compute", "subtraction:", "--size", "5"], "the subtraction set is empty"),
    (&["compute", "subtraction:0", "--size", "5"], "0 is not a subtraction amount"),
    (&["compute", "octal:0.8", "--size", "5"], "is not an octal digit"),
    (&["frobnicate"], "unrecognized subcommand"),
    (&["compute", "kiki", "--size", "5x5", "--frobnicate"], "unexpected argument '--frobnicate'"),
    (&["compute", "kiki", "--size", "5x5", "--format", "xml"], "invalid value 'xml'"),
    (&["compute", "kiki", "--size", "5x5", "--engine", "magic"], "invalid value 'magic'"),
    (&["compute", "kiki", "--size", "5x5", "--threads", "0"], "--threads"),
    (&["games", "--bogus"], "unexpected argument '--bogus'"),
    // The runtime's options belong to the commands that compute (runtime_args::TAKEN_BY).
    (&["games", "--threads", "2"], "unexpected argument '--threads'"),
    (&["show", "kiki", "--max-memory", "1G"], "unexpected argument '--max-memory'"),
    (&["compute", "kiki", "--size", "5x5", "--threads", "0"], "--threads"),
    // Issue 59, item 5: a time bound that no clock holds panicked (inf, 1e20, 1e308, 2^64 − 1);
    // -1 was taken as 0 and NaN as "stop at once".
    (&["patterns", "kayles", "--size", "9", "--law-seconds", "inf"], "a law search's time bound"),
    (&["patterns", "kayles", "--size", "9", "--law-seconds", "1e20"], "a law search's time bound"),
    (&["patterns", "kayles", "--size", "9", "--law-seconds", "1e308"], "a law search's time bound"),
    (
        &["patterns", "kayles", "--size", "9", "--law-seconds", "18446744073709551615"],
        "a law search's time bound",
    ),
    (&["patterns", "kayles", "--size", "9", "--law-seconds=-1"], "a law search's time bound"),
    (&["patterns", "kayles", "--size", "9", "--law-seconds", "NaN"], "a law search's time bound"),
    (&["patterns", "kayles", "--size", "9", "--law-seconds", "ten"], "`ten` is not a number"),
    // Numbers past what coordinates hold (issue 13).
    (
        &[
            "check",
            "kiki",
            "--size",
            "9x9",
            "--p-set",
            "n == 1",
            "--period",
            "9223372036854775807x2",
        ],
        "malformed period",
    ),
    (&["compute", "far.toml", "--size", "5x5"], "moves by 2^31 or more along an axis"),
    // Issue 19: this direction gave a wrong table (the engines disagreed) before issue 13.
    (&["compute", "huge-jump.toml", "--size", "10"], "moves by 2^31 or more along an axis"),
    // Outputs that must not be clobbered, and endless inputs (issue 12).
    (
        &["compute", "kiki", "--size", "3x3", "--out", "read-only.csv"],
        "it is read-only; give --force",
    ),
    (&["plot", "kiki", "--size", "3x3", "--out", "read-only.png"], "it is read-only; give --force"),
    (
        &[
            "compute",
            "kiki",
            "--size",
            "9x9",
            "--format",
            "npy",
            "--out",
            "x.npy",
            "--checkpoint",
            "./x.npy",
        ],
        "--checkpoint and --out name the same file",
    ),
    (&["compute", "/dev/zero", "--size", "5"], "spec file /dev/zero is larger than 16 MiB"),
    (&["compute", "./random.toml", "--size", "5"], "is larger than 16 MiB"),
    (&["patterns", "zero.csv"], "a line is longer than"),
    (&["check", "zero.csv", "--p-set", "true"], "a line is longer than"),
    (&["plot", "zero.csv", "--out", "z.png"], "a line is longer than"),
    // Slices, sums and heap sizes (issue 11).
    (&["patterns", "cutting-cuboid", "--size", "4x4x4", "--slice", "q=2"], "has no axis `q`"),
    (
        &["plot", "kiki", "--size", "4x4", "--slice", "n=2", "--out", "existing.png"],
        "--slice takes a 2-D slice of a 3-D table",
    ),
    (&["value", "kayles", "5", "+"], "`+` must stand between"),
    (&["value", "grundys-game", "10^18"], "no periodicity theorem covers it"),
    (&["show", "nope"], "unknown game `nope`"),
    // Malformed and impossible sizes.
    (&["compute", "kiki", "--size", "0x5"], "axis `n` starts at 1"),
    (&["compute", "cutting", "--size", "1x5"], "axis `w` starts at 2"),
    (&["compute", "kiki", "--size", "5x"], "a coordinate is missing"),
    (&["compute", "kiki", "--size", "-3"], "not a whole number"),
    (&["compute", "kiki", "--size", "abc"], "not a whole number"),
    (&["compute", "kiki", "--size", "1e9x1e9"], "not a whole number"),
    (&["compute", "kiki", "--size", "5"], "write it as RxC"),
    (&["compute", "kayles", "--size", "5x5"], "the game has 1 axis, so write it as N"),
    (&["compute", "kiki"], "--size"),
    // Each with a budget of its own: without one, the refusal would depend on the machine's
    // memory (a machine with more than about 45 GB free would start the kiki fill).
    (
        &[
            "compute",
            "kiki",
            "--size",
            "2000000000x2000000000",
            "--out",
            "existing.csv",
            "--max-memory",
            "8G",
        ],
        "needs",
    ),
    (
        &[
            "compute",
            "kiki",
            "--size",
            "200000x200000",
            "--out",
            "existing.csv",
            "--max-memory",
            "8G",
        ],
        "is available: ",
    ),
    (&["compute", "cutting", "--size", "300000x300000", "--max-memory", "8G"], "is available: "),
    (&["patterns", "wythoff", "--size", "300000x300000", "--max-memory", "8G"], "is available: "),
    (
        &[
            "plot",
            "wythoff",
            "--size",
            "300000x300000",
            "--out",
            "existing.png",
            "--max-memory",
            "8G",
        ],
        "is available: ",
    ),
    // Issue 19: a memory budget, and what the commands hold besides the table.
    (
        &["compute", "kiki", "--size", "2000x2000", "--max-memory", "1M"],
        "is available: the memory budget set by --max-memory or GRUNDY_MAX_MEMORY; --stream",
    ),
    (&["compute", "kiki", "--size", "20x20", "--max-memory", "12Q"], "`12Q` is not a size"),
    (&["compute", "nim", "--size", "300x70000", "--max-memory", "400M"], "needs 788.1 MiB"),
    (&["patterns", "kiki", "--size", "6000x6000", "--max-memory", "100M"], "needs 137.1 MiB"),
    // A record for each of 6·10^6 lines took 735 MB (and 5.7 GB as JSON) past a check of 21 MB.
    (&["patterns", "kiki", "--size", "1x3000000", "--max-memory", "400M"], "needs 567.0 MiB"),
    (
        &["patterns", "wide.csv", "--max-memory", "3M"],
        "line 1: the table is too large to read: the header declares 20000 columns, and one row \
         needs",
    ),
    // Each line's record may take ten times its length: lines are bounded by the budget.
    (&["check", "wide.csv", "--p-set", "n > 0", "--max-memory", "1M"], "a line is longer than"),
    (&["plot", "kiki", "--size", "9000x9000", "--out", "k.png", "--max-memory", "150M"], "needs"),
    (
        &[
            "compute",
            "wythoff",
            "--size",
            "9000x9000",
            "--stream",
            "--format",
            "summary",
            "--max-memory",
            "10M",
        ],
        "(streamed: the rows kept and the line summaries)",
    ),
    (&["value", "kiki", "0x3"], "axis `n` starts at 1"),
    (&["value", "kiki", "3"], "write it as RxC"),
    (&["value", "kiki"], "no position given for kiki"),
    (&["value", "nope", "3"], "unknown game"),
    (&["moves", "nope", "3"], "unknown game"),
    // Issue 29: the view refuses before it serves.
    (&["view", "nope", "--size", "3"], "unknown game"),
    (&["view", "wythoff"], "--size is needed to compute wythoff"),
    (&["view", "cutting-cuboid", "--size", "4x4x4"], "take a 2-D slice with --slice z=2"),
    (&["view", "kiki", "--size", "5x5", "--slice", "z=1"], "--slice takes a 2-D slice of a 3-D"),
    (&["view", "wythoff", "--size", "10x10", "--port", "99999"], "invalid value '99999'"),
    (&["view", "not-numbers.csv"], "line 2: `x` is not a Grundy value"),
    (&["view", "missing.npy"], "cannot read missing.npy"),
    (
        &["view", "wythoff", "--size", "100000x100000", "--max-memory", "1G"],
        "but only 1.0 GiB (1073741824 bytes) is available",
    ),
    // Issue 50: Parquet holds tables of values; a loopy game's and a misère heap game's are
    // refused (README: CSV or .npy), and a Parquet refusal says its cause once.
    (
        &[
            "compute",
            "knight-retreat",
            "--size",
            "63x63",
            "--format",
            "parquet",
            "--out",
            "k.parquet",
        ],
        "--format parquet writes tables of values, and a loopy game's holds",
    ),
    (&["patterns", "bad.parquet"], "cannot read Parquet table bad.parquet"),
    (&["show", "bad.parquet"], "cannot read Parquet table bad.parquet"),
    (&["identify"], "standard input holds no values"),
    (&["identify", "nope"], "unknown game"),
    (&["identify", "cutting", "--row", "2"], "--size is needed to compute cutting"),
    (&["identify", "cutting", "--size", "30x30"], "cutting is a board: name a line of it"),
    (&["identify", "kayles", "--row", "2"], "kayles is a heap game"),
    (&["identify", "cutting", "--size", "30x30", "--row", "99"], "row w 99 is outside the table"),
    (&["identify", "cutting-cuboid", "--size", "4x4x4", "--row", "2"], "cutting-cuboid has 3 axes"),
    (&["identify", "kayles", "--shift", "17"], "invalid value '17'"),
    (&["identify", "kayles", "--index", "existing.csv"], "not an index of known games"),
    (&["identify", "kayles", "--index", "missing.idx"], "cannot read index missing.idx"),
    (&["identify", "not-numbers.csv", "--field", "2"], "`x` in column 2 is not a value"),
    (&["identify", "ragged.csv", "--field", "9"], "ragged.csv has no column `9`"),
    (&["identify", "ragged.csv", "--field", "1", "--row", "1"], "--field reads a column"),
    (&["identify", "pn.csv", "--row", "1"], "holds only outcomes (P/N)"),
    (&["identify", "not-numbers.csv", "--row", "1"], "line 2: `x` is not a Grundy value"),
    (&["moves", "kiki", "0x3"], "axis `n` starts at 1"),
    (&["moves", "kiki", "3"], "write it as RxC"),
    (&["moves", "kayles", "5", "+"], "`+` must stand between"),
    (&["moves", "kayles", "-5"], "unexpected argument"),
    (&["moves", "kayles", "1e5"], "malformed position `1e5`"),
    (&["moves", "grundys-game", "10^18"], "no periodicity theorem covers it"),
    // Options that do not fit the game or each other.
    (
        &["compute", "kiki", "--size", "5x5", "--format", "summary", "--outcome"],
        "--outcome applies",
    ),
    (
        &["compute", "kiki", "--size", "5x5", "--format", "bfile", "--out", "existing.csv"],
        "writes a sequence",
    ),
    (&["compute", "kiki", "--size", "5x5", "--format", "npy", "--stream"], "cannot be streamed"),
    (
        &["compute", "cutting-cuboid", "--size", "4x4x4", "--format", "grid"],
        "a 3-D table has no grid format",
    ),
    (&["compute", "kayles", "--size", "50", "--stream"], "only 2-D tables stream"),
    (&["patterns", "kiki"], "--size is needed to compute kiki"),
    (&["patterns", "pn.csv", "--size", "5x5"], "--size applies to games"),
    // Malformed spec files.
    (&["compute", "missing.toml", "--size", "5"], "cannot read spec file missing.toml"),
    (&["compute", "syntax.toml", "--size", "5"], "syntax.toml: TOML syntax error at line 2"),
    (
        &["compute", "kind.toml", "--size", "5"],
        "kind.toml: rule 1, field `kind`: unknown rule kind",
    ),
    (&["compute", "raise.toml", "--size", "5x5"], "raise.toml: rule 1 (step), field `offsets`"),
    (&["compute", "field.toml", "--size", "5"], "field.toml: field `colour`: unknown field"),
    (&["compute", "steps.toml", "--size", "5"], "steps.toml: rule 1 (jump), field `steps`"),
    (&["show", "syntax.toml"], "TOML syntax error"),
    // Malformed CSV tables.
    (&["patterns", "ragged.csv"], "cannot read ragged.csv: line 3: expected 3 fields"),
    (&["patterns", "not-numbers.csv"], "line 2: `x` is not a Grundy value"),
    (&["patterns", "negative.csv"], "line 3: `-1` is not a Grundy value"),
    (&["patterns", "empty.csv"], "cannot read empty.csv: the file is empty"),
    (&["patterns", "wrong-header.csv"], "line 1: the header is neither a grid"),
    (&["patterns", "gaps.csv"], "line 3"),
    // Issue 19: repeated cells, control characters in names, closed-form inputs echoed escaped.
    (&["patterns", "repeated.csv"], "line 4: the cell [1, 1] appears a second time"),
    (&["plot", "repeated.csv", "--out", "r.png"], "the cell [1, 1] appears a second time"),
    (&["compute", "chess\x1b[2J", "--size", "5"], "unknown game `chess\\u{1b}[2J`"),
    (&["patterns", "missing.csv"], "cannot read missing.csv"),
    (&["patterns", "not-gzip.csv.gz"], "cannot read not-gzip.csv.gz"),
    (&["check", "ragged.csv", "--p-set", "n == 1"], "cannot read ragged.csv: line 3"),
    (&["plot", "not-numbers.csv", "--out", "existing.png"], "line 2: `x` is not a Grundy value"),
    // Malformed expressions and claims.
    (&["check", "kiki", "--size", "5x5", "--p-set", "(n == 1"], "at column 8: expected `)`"),
    (
        &["check", "kiki", "--size", "5x5", "--p-set", "q == 1"],
        "unknown variable `q` (allowed: n, m",
    ),
    (&["check", "kiki", "--size", "5x5", "--values", "n > 1"], "--values must be an integer"),
    (&["check", "kiki", "--size", "5x5", "--p-set", "n +"], "ends too early"),
    (&["check", "kiki", "--size", "5x5", "--p-set", "n ==== 1"], "bad expression"),
    (
        &["check", "kiki", "--size", "5x5", "--p-set", "n == 1", "--values", "n"],
        "cannot be used with",
    ),
    (
        &["check", "kiki", "--size", "5x5", "--p-set", "n == 1", "--period", "0x2"],
        "malformed period",
    ),
    (&["check", "pn.csv", "--values", "n"], "holds only outcomes (P/N)"),
    (&["check", "kiki", "--size", "5x5"], "--p-set"),
    // Outputs that cannot be written, and checkpoints that are not this run's.
    (
        &["compute", "kiki", "--size", "5x5", "--out", "/nonexistent-dir/x.csv"],
        "cannot write /nonexistent-dir/x.csv",
    ),
    (
        &["compute", "kiki", "--size", "5x5", "--out", "/proc/grundy.csv"],
        "cannot write /proc/grundy.csv",
    ),
    (&["compute", "kiki", "--size", "5x5", "--out", "."], "is a directory"),
    (
        &["plot", "kiki", "--size", "5x5", "--out", "existing.csv"],
        "must be a .png, .svg or .pdf file",
    ),
    (&["plot", "cutting-cuboid", "--size", "4x4x4", "--out", "existing.png"], "has 3 axes"),
    (
        &[
            "compute",
            "kiki",
            "--size",
            "5x5",
            "--checkpoint",
            "garbage.ckpt",
            "--out",
            "existing.csv",
        ],
        "checkpoint garbage.ckpt refused: it is not a grundy checkpoint",
    ),
    (
        &["compute", "kiki", "--size", "5x5", "--checkpoint", "x.ckpt", "--engine", "reference"],
        "the reference fill has no waves to save between",
    ),
    (
        &["compute", "nim", "--size", "5x5", "--engine", "sparse", "--out", "existing.csv"],
        "--engine sparse cannot compute nim: the sparse-space engine computes heap games",
    ),
    (&["compute", "octal:0.3", "--size", "50", "--engine", "sparse"], "this game has none"),
    (&["patterns", "nim", "--until-proved"], "--until-proved proves the periods of heap games"),
    (&["patterns", "grundys-game", "--until-proved"], "none covers grundys-game"),
    (&["patterns", "gaps.csv", "--until-proved"], "is a table to read"),
    (&["patterns", "kayles", "--limit", "5"], "--until-proved"),
    // Issue 27: every engine × layout is decided by the library's fill request. A streamed
    // fill is the tiles engine's bands; the reference engine ran them silently before.
    (
        &["compute", "kiki", "--size", "5x5", "--stream", "--engine", "reference"],
        "--stream runs the tiles engine band by band; --engine auto or tiles, not reference",
    ),
    (
        &[
            "compute",
            "kiki",
            "--size",
            "5x5",
            "--stream",
            "--engine",
            "waves",
            "--out",
            "existing.csv",
        ],
        "--stream runs the tiles engine band by band; --engine auto or tiles, not waves",
    ),
    (
        &["compute", "kiki", "--size", "5x5", "--stream", "--checkpoint", "x.ckpt"],
        "--checkpoint with --stream needs --format summary",
    ),
    (&["compute", "cutting", "--size", "9x9", "--stream"], "cannot stream cutting: rule 1 (split)"),
    (
        &["check", "cutting", "--size", "9x9", "--stream", "--p-set", "w == 1"],
        "cannot stream cutting: rule 1 (split)",
    ),
    (
        &[
            "check",
            "kiki",
            "--size",
            "4000x4000",
            "--stream",
            "--p-set",
            "n == 1",
            "--max-memory",
            "10K",
        ],
        "(streamed: the rows kept and the line summaries)",
    ),
    (&["value", "kayles", "10", "--threads", "0"], "0 is not in 1..=1024"),
    (&["survey", "octal:0.?", "--threads", "2000"], "2000 is not in 1..=1024"),
    // Misère play.
    (&["compute", "cutting", "--size", "5x5", "--misere"], "this is a board"),
    (
        &["compute", "kayles", "--size", "9", "--misere", "--checkpoint", "c.ckpt"],
        "which has no waves to save",
    ),
    (&["compute", "kayles", "--size", "9", "--misere", "--engine", "tiles"], "leave --engine out"),
    (
        &["compute", "kiki", "--size", "5x5", "--misere", "--engine", "sparse"],
        "engine computes normal play only",
    ),
    (&["value", "--misere", "kayles", "10^18"], "too far out for the exact misère search"),
    (&["value", "kayles", "3", "+", "misere.toml", "4"], "a sum is played under one convention"),
    (&["compute", "loopy-play.toml", "--size", "5"], "`loopy` is no play convention"),
    (&["patterns", "existing.csv", "--misere"], "--misere and --play apply to games"),
    (&["patterns", "existing.csv", "--play", "misere"], "--misere and --play apply to games"),
    (&["compute", "kayles", "--size", "9", "--play", "misere", "--misere"], "cannot be used with"),
    (
        &["compute", "kayles", "--size", "9", "--play", "loopy"],
        "invalid value 'loopy' for '--play <PLAY>'",
    ),
    (
        &["value", "--misere", "kayles", "40", "41", "42", "--search-seconds", "1"],
        "ran past its limit of 1 s",
    ),
    (
        &["patterns", "kayles", "--misere", "--until-proved"],
        "under misère play only the window theorems hold",
    ),
    (&["patterns", "kiki", "--misere-quotient", "--heaps", "4"], "kiki is not a heap game"),
    (&["patterns", "existing.csv", "--misere-quotient", "--heaps", "4"], "is a table to read"),
    (&["patterns", "kayles", "--misere-quotient"], "--heaps"),
    // Loopy games (a move raises a coordinate).
    (&["compute", "raise-unbounded.toml", "--size", "5"], "raises axis `n`, which has no `max`"),
    (&["compute", "max-below.toml", "--size", "5"], "must lie between"),
    (&["compute", "loopy-board.toml", "--size", "3x7"], "must be its `max`, 7, not 3"),
    (&["compute", "loopy-board.toml", "--size", "7x8"], "axis `m` ends at 7"),
    (&["compute", "loopy-board.toml", "--size", "7x7", "--stream"], "not streamed"),
    (&["compute", "loopy-board.toml", "--size", "7x7", "--engine", "tiles"], "retrograde engine"),
    (&["compute", "loopy-board.toml", "--size", "7x7", "--misere"], "misère play is not computed"),
    (&["compute", "kayles", "--size", "9", "--engine", "retrograde"], "leave sums"),
    (&["view", "loopy-board.toml", "--size", "7x7"], "takes no loopy game"),
    (
        &["patterns", "loopy-board.toml", "--size", "7x7", "--slice", "n=1"],
        "loopy-board has 2 axes",
    ),
    (&["patterns", "loopy-board.toml"], "--size is needed"),
    (
        &["check", "loopy-board.toml", "--size", "7x7", "--draws", "n < 0", "--period", "2x2"],
        "no theorem",
    ),
    (
        &["plot", "loopy-board.toml", "--size", "6x7", "--out", "x.png"],
        "must be its `max`, 7, not 6",
    ),
    (&["moves", "loopy-board.toml", "3x3", "--misere"], "misère play of loopy games"),
    (&["value", "loopy-board.toml", "3x3", "--misere"], "misère play of loopy games"),
    (
        &[
            "patterns",
            "dawsons-kayles",
            "--misere-quotient",
            "--heaps",
            "60",
            "--search-seconds",
            "1",
        ],
        "ran past its limit of 1 s",
    ),
];

/// Every entry of `dir`: a file's bytes and mode, a link's target (never followed: one points
/// at /dev/zero).
fn snapshot(dir: &Path) -> BTreeMap<String, (Vec<u8>, u32)> {
    use std::os::unix::fs::PermissionsExt;
    fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let meta = fs::symlink_metadata(entry.path()).unwrap();
            let content = if meta.file_type().is_symlink() {
                fs::read_link(entry.path()).unwrap().to_string_lossy().into_owned().into_bytes()
            } else {
                fs::read(entry.path()).unwrap()
            };
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, (content, meta.permissions().mode()))
        })
        .collect()
}

/// Fixtures that are not plain text: a read-only output and links to endless devices.
fn special_fixtures(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    for name in ["read-only.csv", "read-only.png"] {
        let locked = dir.join(name);
        fs::write(&locked, "precious\n").unwrap();
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o444)).unwrap();
    }
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.csv")).unwrap();
    std::os::unix::fs::symlink("/dev/urandom", dir.join("random.toml")).unwrap();
    // A grid whose header declares 20000 columns, with one row.
    let columns: Vec<String> = (1..=20000).map(|c| c.to_string()).collect();
    let row = vec!["0"; 20000].join(",");
    fs::write(dir.join("wide.csv"), format!("n\\m,{}\n1,{row}\n", columns.join(","))).unwrap();
}

/// A part of an error line (between `: `) said again later in it: a cause that its error's
/// message had already named (issue 50).
fn said_twice(line: &str) -> Option<String> {
    let parts: Vec<&str> = line.trim_end().split(": ").collect();
    parts.iter().enumerate().find_map(|(k, part)| {
        (part.len() >= 12 && parts[k + 1..].contains(part)).then(|| part.to_string())
    })
}

#[test]
fn every_bad_input_is_one_line_exit_code_2_and_leaves_files_alone() {
    assert!(CASES.len() >= 40, "the matrix covers at least 40 cases");
    let mut failures = Vec::new();
    for (args, expected) in CASES {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in FIXTURES {
            fs::write(dir.path().join(name), text).unwrap();
        }
        special_fixtures(dir.path());
        let before = snapshot(dir.path());
        let output = grundy().args(*args).current_dir(dir.path()).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let mut problems = Vec::new();
        if output.status.code() != Some(2) {
            problems.push(format!("exit code {:?}", output.status.code()));
        }
        if stderr.lines().count() != 1 || !stderr.starts_with("grundy: ") {
            problems.push("not exactly one `grundy: ` line on standard error".to_string());
        }
        if !stderr.contains(expected) {
            problems.push(format!("no {expected:?}"));
        }
        if stderr.contains("panicked") || stderr.contains("RUST_BACKTRACE") {
            problems.push("a panic".to_string());
        }
        if let Some(twice) = said_twice(&stderr) {
            problems.push(format!("a cause said twice: {twice:?}"));
        }
        if !output.stdout.is_empty() {
            problems.push("output on standard output".to_string());
        }
        if snapshot(dir.path()) != before {
            problems.push(
                "the directory changed (a partial or temporary file, or a touched input)"
                    .to_string(),
            );
        }
        if !problems.is_empty() {
            failures.push(format!("{args:?}: {} — stderr: {stderr}", problems.join(", ")));
        }
    }
    assert!(failures.is_empty(), "{} bad cases:\n{}", failures.len(), failures.join("\n"));
}

/// Issue 59, item 11: an error line that echoes a huge input with spaces in it is cut as a
/// whole to a few hundred bytes (a CSV cell of 3 M words gave a 6.0 MB line, a 12 000-term
/// claim 120 KB), keeping the reason at its end.
#[test]
fn error_lines_echo_at_most_a_few_hundred_bytes_of_a_huge_input() {
    let dir = tempfile::tempdir().unwrap();
    let cell = dir.path().join("spacecell.csv");
    fs::write(&cell, format!("n\\m,0,1\n0,0,{}\n1,1,0\n", vec!["1"; 300_000].join(" "))).unwrap();
    let claim = vec!["n >= 0"; 12_000].join(" && ");
    let long_size = vec!["5x5"; 20_000].join(" ");
    for args in [
        vec!["patterns", cell.to_str().unwrap()],
        vec!["check", "kiki", "--size", "5x5", "--p-set", &claim],
        vec!["compute", "kiki", "--size", &long_size],
    ] {
        let output = grundy().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{}", &args[..2].join(" "));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.len() < 1000, "{}: {} bytes", &args[..2].join(" "), stderr.len());
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("characters left out)"), "{stderr}");
    }
}
