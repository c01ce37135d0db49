//! SV-COMP's properties (`.prp` files): which errors a check looks for, and the integer
//! and array settings they imply.
//!
//! | property | what is an error | settings |
//! |---|---|---|
//! | `unreach-call` | a call of `reach_error()`, an `ERROR:` label, a failing `assert` | as given |
//! | `no-overflow` | a signed arithmetic overflow, and nothing else | `--signed-overflow error` |
//! | `valid-memsafety` | an array access out of bounds, and nothing else | `--array-bounds error` |
//!
//! Under `no-overflow` and `valid-memsafety`, reaching `reach_error()` (or a failing
//! `assert`) ends the execution, as the task's `reach_error` (which calls `abort` or
//! `__assert_fail`) does. Programs in lpmc's fragment have no pointers and no heap, so
//! memory safety is array bounds. Any other property is named and answered UNKNOWN.

use std::path::Path;

/// The property a check decides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Property {
    /// `G ! call(reach_error())`: no error location is reachable.
    #[default]
    UnreachCall,
    /// `G ! overflow`: no signed arithmetic overflows.
    NoOverflow,
    /// `G valid-free`, `G valid-deref`, `G valid-memtrack`: for a program whose memory is
    /// its arrays, no access outside an array's bounds.
    ValidMemsafety,
    /// A property lpmc does not check (its name).
    Other(String),
}

impl Property {
    /// Its SV-COMP name (`unreach-call`, `no-overflow`, `valid-memsafety`, or the other
    /// property's name).
    pub fn name(&self) -> &str {
        match self {
            Property::UnreachCall => "unreach-call",
            Property::NoOverflow => "no-overflow",
            Property::ValidMemsafety => "valid-memsafety",
            Property::Other(n) => n,
        }
    }

    /// The property with this SV-COMP name.
    pub fn from_name(name: &str) -> Property {
        match name {
            "unreach-call" => Property::UnreachCall,
            "no-overflow" => Property::NoOverflow,
            "valid-memsafety" => Property::ValidMemsafety,
            other => Property::Other(other.to_string()),
        }
    }

    /// The property of a `.prp` file's text: its `LTL(...)` formulas (`G ! call(...)`,
    /// `G ! overflow`, the three of memory safety), else `None`.
    pub fn from_prp_text(text: &str) -> Option<Property> {
        let formulas: Vec<String> = text
            .split("LTL(")
            .skip(1)
            .map(|f| {
                let f = f.split(')').next().unwrap_or_default();
                f.split_whitespace().collect::<Vec<_>>().join(" ")
            })
            .collect();
        let has = |s: &str| formulas.iter().any(|f| f.starts_with(s));
        if formulas.is_empty() {
            None
        } else if formulas.len() == 1 && has("G ! call(reach_error(") {
            Some(Property::UnreachCall)
        } else if formulas.len() == 1 && has("G ! overflow") {
            Some(Property::NoOverflow)
        } else if has("G valid-deref") && formulas.iter().all(|f| f.starts_with("G valid-")) {
            Some(Property::ValidMemsafety)
        } else {
            Some(Property::Other(formulas.join(" and ")))
        }
    }

    /// The property a `.prp` file names: by its file name (`no-overflow.prp`), else by
    /// its text ([`Property::from_prp_text`]).
    pub fn of_file(path: &Path) -> Property {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        match Property::from_name(stem) {
            Property::Other(_) => std::fs::read_to_string(path)
                .ok()
                .and_then(|t| Property::from_prp_text(&t))
                .unwrap_or_else(|| Property::Other(stem.to_string())),
            p => p,
        }
    }

    /// Whether lpmc checks it.
    pub fn is_supported(&self) -> bool {
        !matches!(self, Property::Other(_))
    }

    /// Its LTL specification as SV-COMP writes it in witnesses.
    pub fn specification(&self) -> String {
        match self {
            Property::UnreachCall => "G ! call(reach_error())".to_string(),
            Property::NoOverflow => "G ! overflow".to_string(),
            Property::ValidMemsafety => "G valid-deref".to_string(),
            Property::Other(n) => n.clone(),
        }
    }
}

impl serde::Serialize for Property {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_properties_of_sv_comp() {
        let p = |t: &str| Property::from_prp_text(t);
        assert_eq!(
            p("CHECK( init(main()), LTL(G ! call(reach_error())) )\n"),
            Some(Property::UnreachCall)
        );
        assert_eq!(
            p("CHECK( init(main()), LTL(G ! overflow) )\n"),
            Some(Property::NoOverflow)
        );
        let mem = "CHECK( init(main()), LTL(G valid-free) )\n\
                   CHECK( init(main()), LTL(G valid-deref) )\n\
                   CHECK( init(main()), LTL(G valid-memtrack) )\n";
        assert_eq!(p(mem), Some(Property::ValidMemsafety));
        assert_eq!(
            p("CHECK( init(main()), LTL(F end) )\n"),
            Some(Property::Other("F end".into()))
        );
        assert_eq!(p("nothing"), None);
        assert_eq!(Property::from_name("termination").name(), "termination");
        assert!(!Property::from_name("termination").is_supported());
        assert_eq!(
            Property::of_file(Path::new("../properties/no-overflow.prp")),
            Property::NoOverflow
        );
    }
}
