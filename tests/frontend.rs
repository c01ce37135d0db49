//! Front-end behaviour: our programs and every shared benchmark load (or are reported
//! unsupported), bad programs give a diagnostic at the right line and column, and the
//! interpreter reaches the error of the deterministic EUREKA programs exactly when they
//! are unsafe. Here through the public API; the tests that need the front end's
//! internals are in `src/frontend/tests/`.

mod common;

use lpmc::{load_path, DiagKind, LoadError};

fn kind_name(k: DiagKind) -> &'static str {
    match k {
        DiagKind::Syntax => "syntax",
        DiagKind::Undeclared => "undeclared",
        DiagKind::Redeclared => "redeclared",
        DiagKind::Arity => "arity",
        DiagKind::NonLinear => "nonlinear",
        DiagKind::Type => "type",
        DiagKind::BadConstant => "badconstant",
        DiagKind::Structure => "structure",
    }
}

#[test]
fn bad_programs_point_at_the_right_place() {
    let files = common::sources(&common::lp_dir().join("errors"));
    assert!(files.len() >= 12, "only {} bad programs", files.len());
    for f in files {
        assert_eq!(
            common::header(&f, "expect").as_deref(),
            Some("error"),
            "{}",
            f.display()
        );
        let at = common::header(&f, "error-at")
            .unwrap_or_else(|| panic!("{}: no error-at", f.display()));
        let kind = common::header(&f, "error-kind")
            .unwrap_or_else(|| panic!("{}: no error-kind", f.display()));
        match load_path(&f) {
            Ok(_) => panic!("{} loaded without error", f.display()),
            Err(LoadError::Invalid { file, diagnostics }) => {
                let d = &diagnostics[0];
                let lc = file.line_col(d.span.start);
                assert_eq!(
                    format!("{}:{}", lc.line, lc.col),
                    at,
                    "{}: {}",
                    f.display(),
                    d.message
                );
                assert_eq!(kind_name(d.kind), kind, "{}: {}", f.display(), d.message);
                let text = d.render(&file, false);
                assert!(text.contains(&format!(":{}:{}", lc.line, lc.col)), "{text}");
            }
            Err(e) => panic!("{}: {e}", f.display()),
        }
    }
}
