//! C's integer types as far as sema needs them: the data model (type sizes, for
//! `sizeof`), the type of an integer literal (C11 §6.4.4.1), the integer promotions and
//! the usual arithmetic conversions (C11 §6.3.1). These functions give the *types*;
//! `cint` gives them C's semantics (conversions, wraparound) under C's integers.

use crate::syntax::ast::{IntKind, IntLit, IntTy};
use num_bigint::BigInt;

/// The data model of the target: the sizes of `long` and of pointers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum DataModel {
    /// `int`, `long` and pointers are 4 bytes (SV-COMP's default, 32-bit x86).
    #[default]
    Ilp32,
    /// `long` and pointers are 8 bytes (64-bit Linux).
    Lp64,
}

impl DataModel {
    /// The SV-COMP spelling, `ILP32` or `LP64`.
    pub fn as_str(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ILP32",
            DataModel::Lp64 => "LP64",
        }
    }

    /// Parse `ILP32` / `LP64` (case-insensitive).
    pub fn parse(s: &str) -> Option<DataModel> {
        match s.to_ascii_uppercase().as_str() {
            "ILP32" => Some(DataModel::Ilp32),
            "LP64" => Some(DataModel::Lp64),
            _ => None,
        }
    }

    /// `sizeof` of an integer type, in bytes.
    pub fn size_of(self, t: IntTy) -> u64 {
        match t.kind {
            IntKind::Bool | IntKind::Char => 1,
            IntKind::Short => 2,
            IntKind::Int => 4,
            IntKind::Long => match self {
                DataModel::Ilp32 => 4,
                DataModel::Lp64 => 8,
            },
            IntKind::LongLong => 8,
            IntKind::Int128 => 16,
        }
    }

    /// `sizeof` of a pointer.
    pub fn pointer_size(self) -> u64 {
        match self {
            DataModel::Ilp32 => 4,
            DataModel::Lp64 => 8,
        }
    }

    /// The largest value of an integer type.
    pub fn max_value(self, t: IntTy) -> BigInt {
        if t.kind == IntKind::Bool {
            return BigInt::from(1);
        }
        let bits = 8 * self.size_of(t) - u64::from(t.signed);
        (BigInt::from(1) << bits) - 1
    }

    /// `size_t`.
    pub fn size_t(self) -> IntTy {
        IntTy::new(IntKind::Long, true)
    }
}

/// The type of an integer literal: the first of the candidate types of its suffix and base
/// that can represent the value (C11 §6.4.4.1); `None` if none can.
pub fn literal_type(value: &BigInt, lit: IntLit, dm: DataModel) -> Option<IntTy> {
    use IntKind::*;
    let ranks: &[IntKind] = match lit.longs {
        0 => &[Int, Long, LongLong],
        1 => &[Long, LongLong],
        _ => &[LongLong],
    };
    for &kind in ranks {
        let signed = IntTy::new(kind, false);
        let unsigned = IntTy::new(kind, true);
        if !lit.unsigned && value <= &dm.max_value(signed) {
            return Some(signed);
        }
        if (lit.unsigned || lit.non_decimal) && value <= &dm.max_value(unsigned) {
            return Some(unsigned);
        }
    }
    None
}

/// The integer promotions: types of rank below `int` become `int` (all their values fit).
pub fn promote(t: IntTy) -> IntTy {
    if t.kind < IntKind::Int {
        IntTy::INT
    } else {
        t
    }
}

/// The usual arithmetic conversions of two integer operands (after promotion).
pub fn common(a: IntTy, b: IntTy, dm: DataModel) -> IntTy {
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    if a.signed == b.signed {
        return if a.kind >= b.kind { a } else { b };
    }
    let (s, u) = if a.signed { (a, b) } else { (b, a) };
    if u.kind >= s.kind {
        u
    } else if dm.size_of(s) > dm.size_of(u) {
        s
    } else {
        IntTy::new(s.kind, true)
    }
}

/// The number of bytes of a string literal's array (its characters after escapes, plus
/// the terminating zero). `text` is the literal between its quotes, escapes as written.
pub fn string_size(text: &str) -> u64 {
    let mut n = 1u64;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            n += c.len_utf8() as u64;
            continue;
        }
        n += 1;
        match chars.next() {
            Some(d) if d.is_digit(8) => {
                for _ in 0..2 {
                    if chars.peek().is_some_and(|d| d.is_digit(8)) {
                        chars.next();
                    }
                }
            }
            Some('x') => {
                while chars.peek().is_some_and(|d| d.is_ascii_hexdigit()) {
                    chars.next();
                }
            }
            _ => {}
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(unsigned: bool, longs: u8, non_decimal: bool) -> IntLit {
        IntLit {
            unsigned,
            longs,
            non_decimal,
        }
    }

    #[test]
    fn literal_types_follow_c11() {
        let dm = DataModel::Ilp32;
        let int = IntTy::INT;
        let uint = IntTy::new(IntKind::Int, true);
        let ll = IntTy::new(IntKind::LongLong, false);
        assert_eq!(
            literal_type(&BigInt::from(5), lit(false, 0, false), dm),
            Some(int)
        );
        // 2^31 is `long long` in decimal under ILP32, but `unsigned int` in hex.
        let big = BigInt::from(1u64 << 31);
        assert_eq!(literal_type(&big, lit(false, 0, false), dm), Some(ll));
        assert_eq!(literal_type(&big, lit(false, 0, true), dm), Some(uint));
        assert_eq!(literal_type(&big, lit(true, 0, false), dm), Some(uint));
        let lp = DataModel::Lp64;
        assert_eq!(
            literal_type(&big, lit(false, 0, false), lp),
            Some(IntTy::new(IntKind::Long, false))
        );
        assert_eq!(
            literal_type(&(BigInt::from(1) << 70), lit(false, 0, false), dm),
            None
        );
    }

    #[test]
    fn sizes_and_conversions() {
        let dm = DataModel::Ilp32;
        assert_eq!(dm.size_of(IntTy::new(IntKind::Long, true)), 4);
        assert_eq!(DataModel::Lp64.size_of(IntTy::new(IntKind::Long, true)), 8);
        let uint = IntTy::new(IntKind::Int, true);
        let long = IntTy::new(IntKind::Long, false);
        assert_eq!(
            common(IntTy::new(IntKind::Char, false), IntTy::BOOL, dm),
            IntTy::INT
        );
        assert_eq!(common(IntTy::INT, uint, dm), uint);
        // ILP32: long cannot hold every unsigned int, so the result is unsigned long.
        assert_eq!(common(long, uint, dm), IntTy::new(IntKind::Long, true));
        assert_eq!(common(long, uint, DataModel::Lp64), long);
        assert_eq!(string_size("ab\\n\\0\\x41"), 6);
    }
}
