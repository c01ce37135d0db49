//! What the analysis takes and gives: its options ([`SemaOptions`], with the integers a
//! program computes with, [`IntModel`], and what a signed overflow does,
//! [`SignedOverflow`]) and its result ([`Analysis`]).

use super::hir::{Program, SignedOverflow};
use super::types::DataModel;
use crate::diag::Unsupported;

/// Which integers a program computes with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum IntModel {
    /// Mathematical integers (EUREKA's; the default for `.lp` files).
    #[default]
    Math,
    /// C's integer types under the data model (the default for `.c` and `.i` files).
    C,
}

impl IntModel {
    /// `math` or `c`.
    pub fn as_str(self) -> &'static str {
        match self {
            IntModel::Math => "math",
            IntModel::C => "c",
        }
    }

    /// Parse `math` / `c` (case-insensitive).
    pub fn parse(s: &str) -> Option<IntModel> {
        match s.to_ascii_lowercase().as_str() {
            "math" | "z" => Some(IntModel::Math),
            "c" => Some(IntModel::C),
            _ => None,
        }
    }
}

/// Options of the analysis.
#[derive(Clone, Debug, Default)]
pub struct SemaOptions {
    /// The data model: the sizes `sizeof` gives.
    pub data_model: DataModel,
    /// A call of a function that is declared nowhere is unsupported (UNKNOWN) rather than
    /// an error: set for files that include system headers lpmc did not read, whose
    /// functions are legitimately called without a declaration in the file.
    pub implicit_functions: bool,
    /// Mathematical or C integers (see `cint`).
    pub int_model: IntModel,
    /// Under C's integers, what a signed overflow does.
    pub signed_overflow: SignedOverflow,
}

/// The result of a successful analysis: the resolved program and the constructs that are
/// outside the fragment (empty when the program can be model checked).
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The resolved program. When `unsupported` is not empty, the parts that were not
    /// understood are replaced by harmless placeholders: do not model check it.
    pub program: Program,
    /// Valid C outside lpmc's fragment, in source order. Constructs in procedures that
    /// `main` never calls are left out: they cannot change the verdict.
    pub unsupported: Vec<Unsupported>,
}
