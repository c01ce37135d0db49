//! `lpmc horn`: a program, or the abstraction the CEGAR loop ends with, as constrained
//! Horn clauses (SMT-LIB's `HORN` logic, CHC-COMP's format) for other solvers (Spacer,
//! Eldarica, Golem). The clauses are the certificate check's regions and encoding
//! ([`crate::certify::horn_clauses`]), written for the program's CFG or for P̂k:
//! - [`Cells::None`]: the program itself, arrays as `(Array Int Int)` arguments; the
//!   clauses are satisfiable exactly when the program is SAFE;
//! - [`Cells::Found`]: the last abstraction of the CEGAR loop (after the paper
//!   *array-free Horn clauses*: tracked and symbolic cells and the ghosts as integer
//!   arguments, an untracked cell's read a fresh value); P̂k over-approximates the
//!   program, so satisfiable clauses mean SAFE, and unsatisfiable ones mean nothing.

use crate::abstraction::{abstract_program, Precision};
use crate::certify::horn_clauses;
use crate::cfg::Cfg;
use crate::driver::{check_with_abstraction, CheckOptions};
use crate::frontend::Loaded;
use crate::report::{GiveUp, Outcome};
use crate::sema::VarKind;

/// Which program the clauses are of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Cells {
    /// The program, arrays included (`--cells none`).
    #[default]
    None,
    /// The last abstraction of the CEGAR loop, array-free (`--cells found`).
    Found,
}

impl std::str::FromStr for Cells {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "none" => Ok(Cells::None),
            "found" => Ok(Cells::Found),
            _ => Err(format!("`{s}` is neither `none` nor `found`")),
        }
    }
}

impl Cells {
    /// The option's value.
    pub fn as_str(self) -> &'static str {
        match self {
            Cells::None => "none",
            Cells::Found => "found",
        }
    }
}

/// Options of `lpmc horn`.
#[derive(Clone, Debug, Default)]
pub struct HornOptions {
    /// Which program the clauses are of.
    pub cells: Cells,
    /// The CEGAR loop's options (with [`Cells::Found`]).
    pub check: CheckOptions,
}

/// The clauses of a program.
#[derive(Clone, Debug)]
pub struct Horn {
    /// The SMT-LIB script.
    pub text: String,
    /// The number of predicates.
    pub predicates: usize,
    /// The number of clauses, queries included.
    pub clauses: usize,
    /// The number of queries.
    pub queries: usize,
    /// With [`Cells::Found`]: how the CEGAR loop ended.
    pub cegar: Option<Outcome>,
}

/// The clauses of `loaded` (named `name` in the header). An error says why none can be
/// written: a construct or property outside what lpmc checks, `main` called by the
/// program, a region too large.
pub fn horn(loaded: &Loaded, name: &str, opts: &HornOptions) -> Result<Horn, String> {
    if let Some(g) = GiveUp::refused(loaded) {
        return Err(g.to_string());
    }
    let mut header = vec![
        format!(
            "Constrained Horn clauses of {name}, written by lpmc {} (lpmc horn --cells {}).",
            env!("CARGO_PKG_VERSION"),
            opts.cells.as_str()
        ),
        format!(
            "Semantics: {}; property: {}.",
            loaded.semantics,
            loaded.semantics.property.name()
        ),
    ];
    let (cfg, cegar) = match opts.cells {
        Cells::None => {
            header.push(
                "Meaning: satisfiable exactly when the program is SAFE (no error location is \
                 reachable); the predicates' least model is the set of states reached at \
                 each cut point."
                    .into(),
            );
            (loaded.cfg.clone(), None)
        }
        Cells::Found => {
            let (report, last) = check_with_abstraction(loaded, &opts.check);
            let phat = last.unwrap_or_else(|| abstract_program(&loaded.cfg, &Precision::empty()));
            header.push(
                "Meaning: the clauses of an abstraction P^ of the program (array-free: tracked \
                 cells, symbolic cells and ghost indices are integer arguments, a read of an \
                 untracked cell is a fresh value). P^ over-approximates the program: \
                 satisfiable implies SAFE; unsatisfiable says nothing."
                    .into(),
            );
            header.push(describe_cells(&phat));
            header.push(match &report.outcome {
                Outcome::Safe(_) => format!(
                    "The CEGAR loop proved P^ safe after {} refinement(s): these are the clauses \
                     of the abstraction it proved.",
                    report.refinements
                ),
                other => format!(
                    "The CEGAR loop did not end SAFE ({}: {}): these are the clauses of its \
                     last abstraction.",
                    other.verdict().as_str(),
                    other.reason()
                ),
            });
            (array_free(phat), Some(report.outcome))
        }
    };
    if cfg.accel.values().any(|a| a.skips) {
        header.push(
            "Loops that only check array cells jump over iterations without testing the \
             checks (--jump-checks): the clauses over-approximate those loops, so \
             unsatisfiable says nothing."
                .into(),
        );
    }
    let c = horn_clauses(&cfg, &loaded.file, &header)?;
    Ok(Horn {
        text: c.text,
        predicates: c.predicates,
        clauses: c.clauses,
        queries: c.queries,
        cegar,
    })
}

/// The cells and ghosts of an abstraction, for the header.
fn describe_cells(phat: &Cfg) -> String {
    let names = |pick: &dyn Fn(&VarKind) -> bool| -> String {
        let v: Vec<&str> = phat
            .vars
            .iter()
            .filter(|v| pick(&v.kind))
            .map(|v| v.name.as_str())
            .collect();
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    format!(
        "Tracked cells: {}; symbolic cells: {}; ghost indices: {}.",
        names(&|k| matches!(k, VarKind::Cell { .. })),
        names(&|k| matches!(k, VarKind::SymCell { .. })),
        names(&|k| matches!(k, VarKind::Ghost { .. })),
    )
}

/// P̂ without its arrays: every access was rewritten to its cells, so the arrays are no
/// state any more.
fn array_free(mut phat: Cfg) -> Cfg {
    phat.global_arrays.clear();
    for p in phat.procs.iter_mut() {
        p.arrays.clear();
    }
    phat
}
