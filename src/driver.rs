//! The driver: loads a program through the front end (text → AST → HIR → CFG), runs the
//! verification pipeline, and produces a [`Report`] with a verdict and its evidence. Only
//! the driver runs the loop (ARCHITECTURE.md §1).

use crate::cfg::Cfg;
use crate::diag::{Diagnostic, SourceFile, Unsupported};
use crate::sema::{self, Analysis};
use crate::syntax::{self, ast};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

/// A program that went through the front end.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The source.
    pub file: SourceFile,
    /// Its syntax tree.
    pub ast: ast::Program,
    /// The resolved program and its unsupported constructs.
    pub analysis: Analysis,
    /// The control-flow graph.
    pub cfg: Cfg,
}

/// Why a program could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The program is not valid input (syntax or semantic errors).
    #[error("{} error(s) in {}", diagnostics.len(), file.name())]
    Invalid {
        /// The source, for rendering.
        file: Box<SourceFile>,
        /// The errors, in source order.
        diagnostics: Vec<Diagnostic>,
    },
}

impl LoadError {
    /// Render for a terminal (or plain text with `color = false`).
    pub fn render(&self, color: bool) -> String {
        match self {
            LoadError::Io { .. } => format!("error: {self}\n"),
            LoadError::Invalid { file, diagnostics } => {
                diagnostics.iter().map(|d| d.render(file, color)).collect()
            }
        }
    }
}

/// Read and load a file.
pub fn load_path(path: &Path) -> Result<Loaded, LoadError> {
    let file = SourceFile::read(path).map_err(|source| LoadError::Io {
        path: path.display().to_string(),
        source,
    })?;
    load(file)
}

/// Parse, resolve and build the CFG of a source file.
pub fn load(file: SourceFile) -> Result<Loaded, LoadError> {
    let ast = match syntax::parse(&file) {
        Ok(a) => a,
        Err(d) => {
            return Err(LoadError::Invalid {
                file: Box::new(file),
                diagnostics: vec![d],
            })
        }
    };
    let analysis = match sema::analyze(&ast) {
        Ok(a) => a,
        Err(diagnostics) => {
            return Err(LoadError::Invalid {
                file: Box::new(file),
                diagnostics,
            })
        }
    };
    let cfg = Cfg::build(&analysis.program);
    Ok(Loaded {
        file,
        ast,
        analysis,
        cfg,
    })
}

/// The answer to "can an error location be reached?".
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// No error location is reachable.
    Safe,
    /// An error location is reachable; the report has a replayed trace.
    Unsafe,
    /// lpmc could not decide; the report says why.
    Unknown,
}

impl Verdict {
    /// The process exit code (0 SAFE, 10 UNSAFE, 20 UNKNOWN).
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Safe => 0,
            Verdict::Unsafe => 10,
            Verdict::Unknown => 20,
        }
    }
    /// Upper-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Safe => "SAFE",
            Verdict::Unsafe => "UNSAFE",
            Verdict::Unknown => "UNKNOWN",
        }
    }
}

/// Options of `lpmc check`.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Wall-clock budget in seconds.
    pub timeout_s: Option<f64>,
    /// Maximum number of refinements.
    pub max_refinements: Option<u32>,
}

/// One input value of a counterexample.
#[derive(Clone, Debug, serde::Serialize)]
pub struct InputValue {
    /// Source line.
    pub line: u32,
    /// What the value is for (`u`, an uninitialised variable, an array cell, ...).
    pub what: String,
    /// The value, in decimal.
    pub value: String,
}

/// One step of a printed counterexample.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TraceStep {
    /// Source line.
    pub line: u32,
    /// The statement.
    pub statement: String,
}

/// A counterexample.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct TraceReport {
    /// The inputs that drive the program to the error, in execution order.
    pub inputs: Vec<InputValue>,
    /// The steps.
    pub steps: Vec<TraceStep>,
    /// Line of the error location.
    pub error_line: u32,
}

/// The outcome of `lpmc check`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    /// The verdict.
    pub verdict: Verdict,
    /// Why (for SAFE and UNSAFE a short summary of the evidence).
    pub reason: String,
    /// Number of refinement iterations.
    pub refinements: u32,
    /// Tracked array cells per array name.
    pub cells: BTreeMap<String, Vec<i64>>,
    /// Wall-clock time.
    pub time_ms: u128,
    /// The counterexample, for UNSAFE.
    pub trace: Option<TraceReport>,
}

/// Check a loaded program.
pub fn check(loaded: &Loaded, _opts: &CheckOptions) -> Report {
    let start = Instant::now();
    let (verdict, reason) = match unsupported_reason(&loaded.file, &loaded.analysis.unsupported) {
        Some(r) => (Verdict::Unknown, r),
        None => (Verdict::Unknown, "no verification engine yet".to_string()),
    };
    Report {
        verdict,
        reason,
        refinements: 0,
        cells: BTreeMap::new(),
        time_ms: start.elapsed().as_millis(),
        trace: None,
    }
}

/// The UNKNOWN reason for a program with unsupported constructs, naming the first one.
pub fn unsupported_reason(file: &SourceFile, unsupported: &[Unsupported]) -> Option<String> {
    let first = unsupported.first()?;
    let more = unsupported.len() - 1;
    Some(if more == 0 {
        first.describe(file)
    } else {
        format!("{} (and {} more)", first.describe(file), more)
    })
}
