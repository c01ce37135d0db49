//! The front end as one call: source text → (C preprocessor) → AST → resolved program →
//! CFG (ARCHITECTURE.md §1, `syntax` → `sema` → `cfg`). Every engine starts from a
//! [`Loaded`] program. [`task`] reads SV-COMP task definitions (`.yml`).
//!
//! Preprocessing ([`cpp`]): a `.c` file with `#define`, `#if...` or `#include "..."` goes
//! through the system preprocessor, and its diagnostics and traces point at the user's
//! lines through the preprocessor's line markers. Files without such directives are read
//! directly, `#` lines skipped, as before; if such a file includes system headers and uses
//! names it does not declare (`INT_MAX`, `NULL`, ...), it is read again through the
//! preprocessor. Without a preprocessor, a file that needs one is UNKNOWN (an unsupported
//! construct at its first directive), never bad input.

pub mod cpp;
pub mod property;
pub mod task;
#[cfg(test)]
mod tests;

use crate::cfg::Cfg;
use crate::diag::{DiagKind, Diagnostic, SourceFile, Unsupported};
use crate::sema::{self, Analysis, SemaOptions};
use crate::syntax::{self, ast};
use std::path::Path;

pub use crate::cfg::ArrayBounds;
pub use crate::sema::{DataModel, IntModel, SignedOverflow};
pub use cpp::Preprocessor;
pub use property::Property;

/// How to load a program.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Whether and how `.c` files are preprocessed (default: with the system
    /// preprocessor, when they need it).
    pub preprocessor: Preprocessor,
    /// The data model (default ILP32): the sizes `sizeof` gives, and the widths of C's
    /// integer types.
    pub data_model: DataModel,
    /// Mathematical or C integers; `None` (the default) chooses by the file: C's for
    /// `.c`, `.i` and `.h` files, mathematical for `.lp` files (EUREKA's semantics).
    pub int_model: Option<IntModel>,
    /// Under C's integers, what a signed overflow does (`--signed-overflow`; default
    /// [`SignedOverflow::Undefined`], as C defines it).
    pub signed_overflow: SignedOverflow,
    /// What an access outside an array's bounds does (`--array-bounds`); `None` (the
    /// default) chooses by the integers: [`ArrayBounds::Undefined`] under C's (as C
    /// defines it), [`ArrayBounds::Nondet`] under mathematical integers (EUREKA's rule).
    pub array_bounds: Option<ArrayBounds>,
    /// The property checked (SV-COMP's; default `unreach-call`). `no-overflow` implies
    /// `--signed-overflow error` and `valid-memsafety` `--array-bounds error`, and then
    /// only those errors count ([`property`]).
    pub property: Property,
    /// Leave the loops as they are (`--no-accel`): no accelerated transitions
    /// ([`crate::accel`]).
    pub no_accel: bool,
    /// Loops that only check cells also get a transition that jumps over iterations
    /// without testing their checks (`--jump-checks`, see [`crate::accel`]). Off by
    /// default: it spares the CEGAR engine the widening at such loops, but changes its
    /// abstract traces, and refinement has lost proofs it finds without it.
    pub jump_checks: bool,
}

/// The integer semantics a program was loaded with.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Semantics {
    /// Mathematical or C integers.
    pub int_model: IntModel,
    /// The data model (the widths of C's types).
    pub data_model: DataModel,
    /// What a signed overflow does (C's integers only; mathematical integers never
    /// overflow).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed_overflow: Option<SignedOverflow>,
    /// What an access outside an array's bounds does.
    pub array_bounds: ArrayBounds,
    /// The property checked.
    pub property: Property,
}

impl Default for Semantics {
    fn default() -> Semantics {
        Semantics {
            int_model: IntModel::default(),
            data_model: DataModel::default(),
            signed_overflow: None,
            array_bounds: ArrayBounds::Nondet,
            property: Property::UnreachCall,
        }
    }
}

impl std::fmt::Display for Semantics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.int_model {
            IntModel::Math => f.write_str("mathematical integers")?,
            IntModel::C => write!(
                f,
                "C integers ({}, {})",
                self.data_model.as_str(),
                match self.signed_overflow.unwrap_or_default() {
                    SignedOverflow::Undefined => "signed overflow is undefined",
                    SignedOverflow::Wrap => "signed overflow wraps",
                    SignedOverflow::Error => "signed overflow is an error",
                }
            )?,
        }
        f.write_str(match self.array_bounds {
            ArrayBounds::Undefined => ", an out-of-bounds array access is undefined",
            ArrayBounds::Nondet => ", an out-of-bounds array read is arbitrary",
            ArrayBounds::Error => ", an out-of-bounds array access is an error",
        })
    }
}

/// A program that went through the front end.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The source; for a preprocessed file, the preprocessor's output with its line map
    /// (so `file.line_col` gives the user's lines).
    pub(crate) file: SourceFile,
    /// The resolved program and its unsupported constructs (a stub `main` when a file
    /// that needs the preprocessor could not be read without one: its `unsupported` says
    /// so).
    pub(crate) analysis: Analysis,
    /// The control-flow graph.
    pub(crate) cfg: Cfg,
    /// The integer semantics.
    pub(crate) semantics: Semantics,
}

impl Loaded {
    /// The source; for a preprocessed file, the preprocessor's output with its line map
    /// (so `file().line_col` gives the user's lines).
    pub fn file(&self) -> &SourceFile {
        &self.file
    }

    /// Whether the program has arrays.
    pub fn has_arrays(&self) -> bool {
        self.cfg.has_arrays()
    }

    /// The CFG (for the criterion benchmarks).
    #[cfg(feature = "internals")]
    pub fn cfg(&self) -> &Cfg {
        &self.cfg
    }

    /// The control-flow graph as text (`lpmc cfg`).
    pub fn cfg_text(&self) -> String {
        crate::cfg::to_text(&self.cfg)
    }

    /// The control-flow graph in Graphviz format (`lpmc cfg --dot`).
    pub fn cfg_dot(&self) -> String {
        crate::cfg::to_dot(&self.cfg)
    }

    /// The integer semantics the program was loaded with.
    pub fn semantics(&self) -> Semantics {
        self.semantics.clone()
    }

    /// Why no engine can decide the program, if it has constructs outside the fragment:
    /// the first one with its position (and how many more there are).
    pub fn unsupported_reason(&self) -> Option<String> {
        unsupported_reason(&self.file, &self.analysis.unsupported)
    }
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

/// Read and load a file with the default options.
pub fn load_path(path: &Path) -> Result<Loaded, LoadError> {
    load_path_with(path, &LoadOptions::default())
}

/// Read and load a file.
pub fn load_path_with(path: &Path, opts: &LoadOptions) -> Result<Loaded, LoadError> {
    let file = SourceFile::read(path).map_err(|source| LoadError::Io {
        path: path.display().to_string(),
        source,
    })?;
    load_with(file, opts)
}

/// Parse, resolve and build the CFG of a source file, with the default options.
pub fn load(file: SourceFile) -> Result<Loaded, LoadError> {
    load_with(file, &LoadOptions::default())
}

/// Preprocess (if needed), parse, resolve and build the CFG of a source file.
pub fn load_with(file: SourceFile, opts: &LoadOptions) -> Result<Loaded, LoadError> {
    let is_c = file.name().ends_with(".c") || file.name().ends_with(".h");
    let use_cpp = is_c && opts.preprocessor != Preprocessor::Off;
    let int_model = opts
        .int_model
        .unwrap_or(if is_c || file.name().ends_with(".i") {
            IntModel::C
        } else {
            IntModel::Math
        });
    // The property's settings override the options'.
    let sema_opts = SemaOptions {
        data_model: opts.data_model,
        implicit_functions: cpp::has_system_include(file.text()),
        int_model,
        signed_overflow: match opts.property {
            Property::NoOverflow => SignedOverflow::Error,
            _ => opts.signed_overflow,
        },
    };
    let bounds = match opts.property {
        Property::ValidMemsafety => ArrayBounds::Error,
        _ => opts.array_bounds.unwrap_or(match int_model {
            IntModel::C => ArrayBounds::Undefined,
            IntModel::Math => ArrayBounds::Nondet,
        }),
    };
    let loaded = load_unaccelerated(file, opts, &sema_opts, use_cpp);
    loaded.map(|mut l| {
        l.semantics.array_bounds = bounds;
        l.semantics.property = opts.property.clone();
        match crate::cfg::instrument_bounds(&l.cfg, bounds) {
            Ok(cfg) => {
                l.cfg = cfg;
                // Every access that executes is in bounds: a cell read twice gives the
                // same value (under EUREKA's rule a read outside draws anew).
                if bounds != ArrayBounds::Nondet {
                    crate::cfg::reuse_reads(&mut l.cfg);
                }
            }
            Err(span) => l.analysis.unsupported.push(Unsupported::new(
                format!(
                    "an array access whose evaluation depends on `u` (under --array-bounds {})",
                    bounds.as_str()
                ),
                span,
            )),
        }
        // Only the property's errors count: every other error location ends the run.
        match opts.property {
            Property::NoOverflow => {
                let keep = l.cfg.overflow_checks.clone();
                crate::cfg::keep_errors(&mut l.cfg, &keep);
            }
            Property::ValidMemsafety => {
                let keep = l.cfg.bounds_checks.clone();
                crate::cfg::keep_errors(&mut l.cfg, &keep);
            }
            Property::UnreachCall | Property::Other(_) => {}
        }
        if !opts.no_accel {
            crate::accel::accelerate(&mut l.cfg, opts.jump_checks);
        }
        l
    })
}

/// [`load_with`] before acceleration.
fn load_unaccelerated(
    file: SourceFile,
    opts: &LoadOptions,
    sema_opts: &SemaOptions,
    use_cpp: bool,
) -> Result<Loaded, LoadError> {
    if use_cpp {
        if let Some(at) = cpp::first_cpp_directive(file.text()) {
            return preprocessed(file, opts, sema_opts, at, None);
        }
    }
    match analyze(file, sema_opts) {
        Err(LoadError::Invalid { file, diagnostics })
            if use_cpp
                && cpp::has_system_include(file.text())
                && diagnostics.iter().all(|d| d.kind == DiagKind::Undeclared) =>
        {
            // Names a system header would declare (`INT_MAX`, `NULL`, ...): read the
            // file again through the preprocessor.
            let at = diagnostics[0].span;
            preprocessed(*file, opts, sema_opts, at, Some(diagnostics))
        }
        other => other,
    }
}

/// Load `file` through the preprocessor. `at` is the first place that needs it. With
/// `earlier`, the file was read without the preprocessor and gave these errors: they are
/// the answer unless the preprocessed file loads.
fn preprocessed(
    file: SourceFile,
    opts: &LoadOptions,
    sema_opts: &SemaOptions,
    at: crate::diag::Span,
    earlier: Option<Vec<Diagnostic>>,
) -> Result<Loaded, LoadError> {
    let invalid = |file: SourceFile, diagnostics| LoadError::Invalid {
        file: Box::new(file),
        diagnostics,
    };
    match cpp::preprocess(&file, &opts.preprocessor) {
        Ok(pre) => match (analyze(pre, sema_opts), earlier) {
            (Ok(l), _) => Ok(l),
            (Err(_), Some(diagnostics)) => Err(invalid(file, diagnostics)),
            (Err(e), None) => Err(e),
        },
        Err(cpp::CppError::NotFound) => {
            let what = match &earlier {
                Some(_) => format!(
                    "`{}` is not declared: a macro of a system header? (no C preprocessor \
                     is installed: cpp, cc -E)",
                    file.snippet(at)
                ),
                None => "preprocessor directive, but no C preprocessor is installed (cpp, cc -E)"
                    .to_string(),
            };
            without_cpp(file, sema_opts, Unsupported::new(what, at))
        }
        Err(cpp::CppError::MissingSystemHeader(name, at)) => {
            let what = format!("system header <{name}>, which the C preprocessor cannot find");
            without_cpp(file, sema_opts, Unsupported::new(what, at))
        }
        Err(cpp::CppError::Failed(d)) => match earlier {
            Some(diagnostics) => Err(invalid(file, diagnostics)),
            None => Err(invalid(file, vec![d])),
        },
    }
}

/// A file that needs the preprocessor but cannot have it: UNKNOWN with `why`. The file is
/// read with its `#` lines skipped; if that fails, the program is a stub `main` (the
/// verdict is UNKNOWN anyway).
fn without_cpp(
    file: SourceFile,
    sema_opts: &SemaOptions,
    why: Unsupported,
) -> Result<Loaded, LoadError> {
    if let Ok(mut l) = analyze(file.clone(), sema_opts) {
        l.analysis.unsupported.insert(0, why);
        return Ok(l);
    }
    let span = why.span;
    let proto = ast::FuncProto {
        storage: ast::Storage::default(),
        ret: ast::Ty::Int {
            int: ast::IntTy::INT,
            spelling: "int".to_string(),
        },
        ret_pointer: 0,
        name: ast::Ident {
            name: "main".to_string(),
            span,
        },
        params: Vec::new(),
        void_params: false,
        variadic: false,
        attributes: Vec::new(),
        span,
    };
    let ast = ast::Program {
        items: vec![ast::Item::Func(ast::FuncDef {
            proto,
            body: ast::Stmt::new(ast::StmtKind::Block(Vec::new()), span),
            span,
        })],
        span,
    };
    let mut analysis = match sema::analyze_with(&ast, sema_opts) {
        Ok(a) => a,
        Err(diagnostics) => {
            return Err(LoadError::Invalid {
                file: Box::new(file),
                diagnostics,
            })
        }
    };
    analysis.unsupported = vec![why];
    let cfg = Cfg::build(&analysis.program);
    let semantics = semantics(sema_opts);
    Ok(Loaded {
        file,
        analysis,
        cfg,
        semantics,
    })
}

fn semantics(o: &SemaOptions) -> Semantics {
    Semantics {
        int_model: o.int_model,
        data_model: o.data_model,
        signed_overflow: (o.int_model == IntModel::C).then_some(o.signed_overflow),
        array_bounds: ArrayBounds::Nondet,
        property: Property::UnreachCall,
    }
}

/// Parse, resolve and build the CFG (no preprocessing).
fn analyze(file: SourceFile, sema_opts: &SemaOptions) -> Result<Loaded, LoadError> {
    let ast = match syntax::parse(&file) {
        Ok(a) => a,
        Err(d) => {
            return Err(LoadError::Invalid {
                file: Box::new(file),
                diagnostics: vec![d],
            })
        }
    };
    let analysis = match sema::analyze_with(&ast, sema_opts) {
        Ok(a) => a,
        Err(diagnostics) => {
            return Err(LoadError::Invalid {
                file: Box::new(file),
                diagnostics,
            })
        }
    };
    let cfg = Cfg::build(&analysis.program);
    let semantics = semantics(sema_opts);
    Ok(Loaded {
        file,
        analysis,
        cfg,
        semantics,
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
