//! The SV-COMP and KLEE conventions (ARCHITECTURE §3): which called names are builtins
//! (`reach_error`, `__VERIFIER_assert`, `__VERIFIER_nondet_int`, `klee_assume`, output
//! functions, ...) and what they mean.

use crate::syntax::ast::{IntKind, IntTy};

/// What a called name denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Builtin {
    Error,
    Assert,
    Assume,
    Stop,
    /// `__VERIFIER_nondet_T()`: any value of type T.
    Nondet(IntTy),
    MakeSymbolic,
    /// Output functions: no effect on the program's variables. Only allowed as
    /// statements; their arguments are evaluated for their effects.
    Ignored,
    /// `__builtin_expect(e, c)`: the value of `e`.
    Identity,
}

pub(super) fn builtin(name: &str) -> Option<Builtin> {
    Some(match name {
        "reach_error"
        | "__VERIFIER_error"
        | "__assert_fail"
        | "__assert_rtn"
        | "__assert"
        | "__assert_perror_fail" => Builtin::Error,
        "assert" | "__VERIFIER_assert" => Builtin::Assert,
        "assume" | "__VERIFIER_assume" | "assume_abort_if_not" | "klee_assume" => Builtin::Assume,
        "abort" | "exit" | "_exit" | "__builtin_trap" | "__builtin_unreachable" => Builtin::Stop,
        "klee_make_symbolic" => Builtin::MakeSymbolic,
        "printf" | "fprintf" | "puts" | "fputs" | "putchar" | "fputc" | "fflush" | "perror" => {
            Builtin::Ignored
        }
        "__builtin_expect" => Builtin::Identity,
        _ => {
            let kind = name.strip_prefix("__VERIFIER_nondet_")?;
            Builtin::Nondet(nondet_type(kind)?)
        }
    })
}

/// The C type of `__VERIFIER_nondet_<kind>()`.
pub(super) fn nondet_type(kind: &str) -> Option<IntTy> {
    use IntKind::*;
    let (k, unsigned) = match kind {
        "bool" | "_Bool" => (Bool, true),
        "char" => (Char, false),
        "uchar" | "unsigned_char" => (Char, true),
        "short" => (Short, false),
        "ushort" | "unsigned_short" => (Short, true),
        "int" => (Int, false),
        "uint" | "unsigned" | "unsigned_int" | "u32" => (Int, true),
        "long" => (Long, false),
        "ulong" | "unsigned_long" => (Long, true),
        "longlong" => (LongLong, false),
        "ulonglong" => (LongLong, true),
        "int128" => (Int128, false),
        "uint128" => (Int128, true),
        "size_t" => (Long, true),
        k if k.starts_with('u') => (Int, true),
        _ => return None,
    };
    Some(IntTy::new(k, unsigned))
}
