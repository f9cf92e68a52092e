//! The play convention as the command line takes it: `--play normal|misere`, and `--misere`, the
//! same as `--play misere`. One value ([`PlayArg`]), turned into the library's
//! [`grundy_core::Play`] here and handed on; no command branches on a flag of its own.

use clap::ValueEnum;
use grundy_core::{Game, Play};

/// A play convention's name on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum PlayName {
    /// The player who makes the last move wins.
    Normal,
    /// The player who makes the last move loses.
    Misere,
}

impl From<PlayName> for Play {
    fn from(name: PlayName) -> Play {
        match name {
            PlayName::Normal => Play::Normal,
            PlayName::Misere => Play::Misere,
        }
    }
}

/// `--play` and its alias `--misere`. Not given, a game plays as its spec says (a spec with
/// `play = "misere"` is misère already).
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub(crate) struct PlayArg {
    /// The play convention: `normal` (the last mover wins) or `misere` (the last mover loses:
    /// misère Grundy values, 0 exactly on the misère P-positions). The default is the game's
    /// own (normal, unless its spec says `play = "misere"`).
    #[arg(long, value_enum, value_name = "PLAY")]
    play: Option<PlayName>,
    /// Misère play: the same as `--play misere`.
    #[arg(
        long = "misere",
        value_enum,
        num_args = 0,
        default_missing_value = "misere",
        conflicts_with = "play"
    )]
    misere: Option<PlayName>,
}

impl PlayArg {
    /// The convention asked for, if one was.
    pub(crate) fn given(self) -> Option<Play> {
        self.play.or(self.misere).map(Play::from)
    }

    /// Whether misère play was asked for.
    pub(crate) fn is_misere(self) -> bool {
        self.given() == Some(Play::Misere)
    }

    /// `game` under the convention asked for, or as it is.
    pub(crate) fn apply(self, game: Game) -> Game {
        match self.given() {
            Some(play) => game.with_play(play),
            None => game,
        }
    }

    /// The convention a command's words ask for (a dataset recipe's entry): `--misere`,
    /// `--play misere` or `--play=misere`; `None` when they name none.
    pub(crate) fn in_words(words: &[String]) -> Option<Play> {
        let named = |name: &str| PlayName::from_str(name, false).ok().map(Play::from);
        words.iter().enumerate().find_map(|(at, word)| match word.as_str() {
            "--misere" => Some(Play::Misere),
            "--play" => words.get(at + 1).and_then(|name| named(name)),
            _ => word.strip_prefix("--play=").and_then(named),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Taken {
        #[command(flatten)]
        play: PlayArg,
    }

    fn given(words: &[&str]) -> Result<Option<Play>, clap::Error> {
        Taken::try_parse_from(std::iter::once("grundy").chain(words.iter().copied()))
            .map(|taken| taken.play.given())
    }

    #[test]
    fn play_is_one_value_and_misere_its_alias() {
        assert_eq!(given(&[]).unwrap(), None);
        assert_eq!(given(&["--misere"]).unwrap(), Some(Play::Misere));
        assert_eq!(given(&["--play", "misere"]).unwrap(), Some(Play::Misere));
        assert_eq!(given(&["--play=normal"]).unwrap(), Some(Play::Normal));
        assert!(given(&["--play", "misere", "--misere"]).is_err(), "both at once are refused");
        assert!(given(&["--play", "loopy"]).is_err());
    }

    #[test]
    fn a_recipes_words_name_their_play() {
        let words = |text: &str| text.split(' ').map(str::to_string).collect::<Vec<_>>();
        assert_eq!(PlayArg::in_words(&words("compute kayles --size 40")), None);
        assert_eq!(PlayArg::in_words(&words("compute kayles --misere")), Some(Play::Misere));
        assert_eq!(PlayArg::in_words(&words("compute kayles --play misere")), Some(Play::Misere));
        assert_eq!(PlayArg::in_words(&words("compute kayles --play=normal")), Some(Play::Normal));
    }
}
