use crate::load::{is_table_file, load_game, prepare_fill, slice_of, sliced, Analysis, TableArgs};
use crate::progress::Bar;
use crate::signals;
use anyhow::{bail, Context, Result};
use grundy_compute::Runtime;
use grundy_compute::{FillError, Progress};
use grundy_core::{parse_coords, Table, TableShape};
use grundy_view::{Server, ViewProgress, ViewState};
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

/// Explore a table in the browser: a zoomable map, each cell's value and moves, claims, patterns.
///
/// `grundy view wythoff --size 16383x16383` computes the table (its progress shows here and on
/// the page) and serves a page at a local address it prints: pan and zoom the map, hover a cell
/// to read its value, click it to see its options and the mex, type a claim to see its
/// counterexamples, list the periodic rows and columns, download a region as CSV or the view as
/// PNG. A heap game is shown as its sequence, with its period marked. A table file (`.csv`,
/// `.csv.gz`, `.npy`, `.b`) is shown as it is (without moves: a file does not carry its rules).
///
/// The server listens on 127.0.0.1 only, and answers only requests that carry the token in the
/// address it prints (`?token=…`): another web page open in the browser cannot read the table.
/// Over SSH, forward its port: `ssh -L 8080:127.0.0.1:8080 HOST`, run `grundy view … --port 8080`
/// there, and open the printed address here. Ctrl-C stops it.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) table: TableArgs,
    /// The port to listen on (127.0.0.1 only); a free one when not given.
    #[arg(long)]
    port: Option<u16>,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
}

pub(crate) fn run(args: Args, runtime: &Runtime) -> Result<ExitCode> {
    let table_args = &args.table;
    let bar = Bar::waiting(table_args.quiet);
    if is_table_file(&table_args.source) {
        let table = table_args.load(runtime, &bar, Analysis::View)?;
        shown(&table)?;
        let server = Server::bind(args.port)?;
        announce(&server, table.name(), args.open)?;
        signals::defer();
        return serve(server, ViewState::of_table(table, runtime.threads().clone()));
    }
    // A game: checked (its dimensions and the memory for the table and the view) before the
    // server starts, then computed while the page shows the progress.
    let game = table_args.play.apply(load_game(&table_args.source)?);
    let Some(size) = table_args.size.as_deref() else {
        bail!(
            "--size is needed to compute {} (or give a table file: .csv, .npy, .b)",
            table_args.source
        )
    };
    let shape = TableShape::new(&game, &parse_coords(size, "size")?, size)?;
    if shape.lens().len() == 3 && table_args.slice.is_none() {
        let last = &game.axes()[2];
        bail!(
            "the view shows 1-D and 2-D tables; {} is 3-D: take a 2-D slice with --slice {}={}",
            game.name(),
            last.name,
            last.min
        );
    }
    // A slice that does not exist is refused now, not on the page once the table is computed.
    if let Some(spec) = &table_args.slice {
        slice_of(spec, game.name(), &shape)?;
    }
    let fill = prepare_fill(&game, &shape, runtime, Analysis::View)?;
    let server = Server::bind(args.port)?;
    let name = game.name().to_string();
    announce(&server, &format!("{name} {size}"), args.open)?;
    let cells = shape.cells() as u64;
    let state = ViewState::computing(&name, cells, runtime.threads().clone());
    let slice = table_args.slice.clone();
    let computing = state.clone();
    // Signals stop the fill and the server instead of ending the process at once.
    signals::defer();
    std::thread::scope(|scope| {
        let game = &game;
        scope.spawn(move || {
            let progress = Interruptible(&bar);
            bar.start(cells);
            let filled = fill.fill(&ViewProgress { inner: &progress, state: &computing });
            bar.finish();
            match filled {
                Ok(table) => {
                    let table = Table::of_game(game.clone(), table);
                    match slice {
                        Some(spec) => match sliced(table, &spec) {
                            Ok(table) => computing.ready(table),
                            Err(err) => computing.failed(crate::errors::chain(&err)),
                        },
                        None => computing.ready(table),
                    }
                }
                Err(FillError::Cancelled) => computing.failed("stopped".into()),
                Err(err) => computing.failed(format!("cannot compute the table: {err}")),
            }
        });
        serve(server, state)
    })
}

/// The tables the view shows: 1-D and 2-D.
fn shown(table: &Table) -> Result<()> {
    let dims = table.data().axes().len();
    if dims > 2 {
        bail!(
            "the view shows 1-D and 2-D tables; {} is {dims}-D: take a 2-D slice with --slice",
            table.name()
        );
    }
    Ok(())
}

/// Prints the page's address (and opens it with `--open`).
fn announce(server: &Server, what: &str, open: bool) -> Result<()> {
    let url = server.url();
    let mut out = crate::output::stdout()?;
    writeln!(out, "grundy view: {what} at {url} (Ctrl-C stops the server)")?;
    out.flush()?;
    if open {
        if let Err(err) = open::that_detached(&url) {
            eprintln!("grundy: cannot open a browser ({err}); open {url} yourself");
        }
    }
    Ok(())
}

/// Serves until Ctrl-C or SIGTERM, then stops cleanly: exit code 130, as for every command a
/// signal stops.
fn serve(server: Server, state: Arc<ViewState>) -> Result<ExitCode> {
    server.run(state, signals::interrupted).context("the view stopped")?;
    signals::undefer();
    eprintln!("grundy view: stopped");
    Ok(ExitCode::from(signals::EXIT_INTERRUPTED))
}

/// The terminal's bar, cancelled by a signal.
struct Interruptible<'a>(&'a Bar);

impl Progress for Interruptible<'_> {
    fn advance(&self, cells: u64) {
        self.0.advance(cells);
    }

    fn cancelled(&self) -> bool {
        signals::interrupted()
    }

    fn runs(&self, engine: grundy_compute::Engine) {
        self.0.runs(engine);
    }
}
