//! lpmc: a symbolic model checker for generalised linear programs with arrays, after
//! Armando, Benerecetti and Mantovani, *Model Checking Linear Programs with Arrays*
//! (EUREKA). It decides whether an error location (an `ERROR:` label, a failing
//! `assert`, `reach_error()`) of a C-like program is reachable. See
//! `../shared/ARCHITECTURE.md` for the design.
//!
//! # Use
//!
//! Load a program ([`load`], [`load_path`], or [`load_with`] and [`load_path_with`] with
//! [`LoadOptions`]: the preprocessor, mathematical or C integers ([`IntModel`], by default
//! C's for `.c`/`.i` files), what a signed overflow does ([`SignedOverflow`]: undefined
//! by default, as in C), the [`DataModel`]; [`Loaded::semantics`] says which
//! [`Semantics`] a program got), then run an engine on it: [`check`] (abstraction,
//! tabulation and refinement, the EUREKA loop), [`bmc`] (bounded model checking),
//! [`portfolio`] (both and a concrete search, the first definite answer wins: what
//! `lpmc check` runs), or
//! [`run_inputs`] and [`run_random`] (concrete runs). Each engine's report carries an [`Outcome`]: `Safe`
//! with a [`Proof`], `Unsafe` with a replayed [`Counterexample`], or `Unknown` with a
//! typed [`GiveUp`] reason.
//!
//! ```
//! use lpmc::{check, load, CheckOptions, Outcome, SourceFile};
//!
//! // The paper's Fig. 1.
//! let text = "void main() {
//!   int i, a[3];
//!   a[1] = 1;
//!   i = 0;
//!   while (a[i] != 1 && i < 3) { a[i] = 2 * i; i = i + 1; }
//!   if (i > 1) { ERROR: ; }
//! }";
//! let program = load(SourceFile::new("fig1.lp", text))?;
//! let report = check(&program, &CheckOptions::default());
//! match &report.outcome {
//!     Outcome::Safe(proof) => assert_eq!(proof.cells["a"], [1]),
//!     Outcome::Unsafe(cex) => panic!("an error at line {}", cex.error_line),
//!     Outcome::Unknown(why) => panic!("no verdict: {why}"),
//! }
//! # Ok::<(), lpmc::LoadError>(())
//! ```
//!
//! Tests and tools may pass their own solvers ([`CheckOptions::solvers`]) through the
//! backend-neutral interface of [`smt`].
//!
//! # The pipeline
//!
//! text → `syntax` (AST) → `sema` (resolved program) → `cfg` (the graph of paper §3) →
//! `accel` (loop acceleration) →
//! `abstraction` (P̂k) → `engine` over `domain` (RHS tabulation over disjunctive linear
//! constraints) → `trace` (the path as an SSA query on the original program, checked by
//! [`smt`]) → `refine` (new array cells), in a loop run by `driver`.
//!
//! The modules are declared below in pipeline order, and **a module may use only modules
//! to its left** (modules of one row are siblings and never import each other);
//! `tests/layering.rs` checks it on the source:
//!
//! | row | modules | what they are |
//! |---|---|---|
//! | 0 | `diag`, `ids`, `limits` | shared leaves: spans and diagnostics, typed indices, time and memory limits |
//! | 1 | `linear`, [`smt`] | exact linear arithmetic; the solver interface and its cvc5 adapter |
//! | 2 | `syntax` | text → AST |
//! | 3 | [`metamorph`] | verdict-preserving variants of a program (AST rewrites), for the metamorphic test |
//! | 4 | `sema` | AST → resolved program |
//! | 5 | `cfg` | resolved program → control-flow graph |
//! | 6 | `accel` | loop acceleration: translation/reset loop paths get an exact closure as an alternative at their head |
//! | 7 | `interp` | the concrete interpreter over the CFG (the oracle) |
//! | 8 | `frontend` | [`load`]: syntax → sema → cfg in one call, the C preprocessor, task files |
//! | 9 | `abstraction` | P → P̂k over tracked cells |
//! | 10 | `domain` | disjunctive linear constraints (entailment through [`smt`]) |
//! | 11 | `engine` | RHS tabulation (never sees syntax, cvc5, traces or refinement) |
//! | 12 | `trace` | witness → trace → SSA query on the original program |
//! | 13 | `refine`, `search`, `invariant` | unsat core → new array cells; concrete search for error runs; the invariants of a converged tabulation as formulas ([`InvariantMap`]) |
//! | 14 | `certify` | the certificate check of a SAFE verdict: its invariants re-checked on the original program ([`Certificate`]) |
//! | 15 | `report` | the outcome types every engine shares |
//! | 16 | `iteration` | the record of each CEGAR iteration ([`Iteration`]) and of the program ([`ProgramView`]), for `--report` and `--json` |
//! | 17 | `driver`, `bmc` | the CEGAR loop ([`check`]); bounded model checking ([`bmc`]) |
//! | 18 | `portfolio`, `run`, `horn` | `lpmc check`: CEGAR, bmc and search under one deadline ([`portfolio`]); concrete runs of a loaded program; the program or its last abstraction as constrained Horn clauses ([`horn`]) |
//! | 19 | `html`, [`text`], `witness` | the HTML report of a check ([`html_report`]) and the plain text of reports, from the typed reports only; SV-COMP witnesses ([`violation_witness`], [`correctness_witness`], [`validate_witness`]) |
//! | 20 | [`tools`] | `regress` and `scale`, over the public API only |
//!
//! Only the CLI (`main.rs`), the portfolio, `html` and [`tools`] use the driver. The internal modules are
//! private to the crate; the `internals` cargo feature makes them public for the
//! criterion benchmarks (`benches/`).

/// Declares internal modules: `pub(crate)`, or `pub` with the `internals` feature.
macro_rules! internal_modules {
    ($(mod $name:ident;)*) => {$(
        #[cfg(not(feature = "internals"))]
        pub(crate) mod $name;
        #[cfg(feature = "internals")]
        pub mod $name;
    )*};
}

#[cfg(test)]
mod testutil;

internal_modules! {
    mod diag;
    mod ids;
    mod limits;
    mod linear;
}
pub mod smt;
internal_modules! {
    mod syntax;
}
pub mod metamorph;
internal_modules! {
    mod sema;
    mod cfg;
    mod accel;
    mod interp;
    mod frontend;
    mod abstraction;
    mod domain;
    mod engine;
    mod trace;
    mod refine;
    mod search;
    mod invariant;
    mod certify;
    mod report;
    mod iteration;
    mod driver;
    mod bmc;
    mod portfolio;
    mod run;
    mod horn;
    mod html;
    mod witness;
}
pub mod text;
pub mod tools;

// The front end.
pub use crate::diag::{DiagKind, Diagnostic, SourceFile, Span};
pub use crate::frontend::task::{expected_safe_for, is_task_file, Task, TaskError};
pub use crate::frontend::{
    load, load_path, load_path_with, load_with, ArrayBounds, DataModel, IntModel, LoadError,
    LoadOptions, Loaded, Preprocessor, Property, Semantics, SignedOverflow,
};

// Limits.
pub use crate::limits::{Deadline, Exhausted, DEFAULT_MEMORY_MB};

// Outcomes.
pub use crate::report::{
    AcceleratedLoop, Counterexample, Engine, EngineRun, GiveUp, InputValue, Outcome, Proof,
    TraceStep, Verdict, STEPS_KEPT,
};

// Invariants.
pub use crate::invariant::{
    Formula, InvariantMap, Point as InvariantPoint, PointInvariant, Row, RowBound, Term, TermKind,
};

// Certificates.
pub use crate::certify::{CertStatus, Certificate};

// The engines.
pub use crate::bmc::{
    bmc, bmc_recheck, bmc_within, bmc_within_mode, BmcMode, BmcOptions, BmcReport, Unwind,
    PATH_BUDGET,
};
pub use crate::driver::{
    check, check_within, CheckOptions, PointReport, Report, Stats, DEFAULT_MAX_REFINEMENTS,
};
pub use crate::engine::Budget;
pub use crate::html::{
    bar as html_bar, escape as html_escape, page as html_page, page_styled as html_page_styled,
    report as html_report, verdict_class as html_verdict_class,
};
pub use crate::iteration::{
    AbstractStmt, AbstractTrace, AddedCell, CfgNodeView, EdgeKind, FixedAccess, Iteration,
    IterationTimes, LineVisits, ProgramView, StepRef, TraceCheck,
};
pub use crate::portfolio::certified;
pub use crate::portfolio::{check as portfolio, EngineChoice};
pub use crate::run::{run_inputs, run_random, RandomRuns, RunOutcome, RunReport};

// Horn clauses.
pub use crate::horn::{horn, Cells, Horn, HornOptions};

// Witnesses.
pub use crate::witness::{
    correctness_witness, validate as validate_witness, violation_witness, witness_json,
    InvalidWitness, ValidateOptions, Validation, ValidationVerdict, WitnessTask, SPECIFICATION,
};
