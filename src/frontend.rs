//! The front end as one call: source text → AST → resolved program → CFG
//! (ARCHITECTURE.md §1, `syntax` → `sema` → `cfg`). Every engine starts from a [`Loaded`]
//! program.

use crate::cfg::Cfg;
use crate::diag::{Diagnostic, SourceFile, Unsupported};
use crate::sema::{self, Analysis};
use crate::syntax::{self, ast};
use std::path::Path;

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
