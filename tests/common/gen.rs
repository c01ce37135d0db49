//! Random small programs for the differential tests (proptest strategies), and the
//! interpreter as their oracle. One generator, configured by [`Shape`]: which arrays the
//! statements may read and write, and whether they call a procedure.

use lpmc::run_random;
use lpmc::Loaded;
use proptest::prelude::*;

/// What the generated statements may use.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Arrays that reads and writes name (declared by the program's prelude).
    pub arrays: &'static [&'static str],
    /// Indices range over this interval of constants (out-of-range ones included).
    pub const_index: (i32, i32),
    /// Statements `v = f(v);` (the prelude declares `f`).
    pub calls: bool,
    /// Parallel assignments `x, y = e1, e2;` and `v % c`.
    pub scalar_extras: bool,
}

const VARS: &[&str] = &["x", "y", "g"];
const CMP: &[&str] = &["<", "<=", "==", "!=", ">", ">="];

fn var() -> BoxedStrategy<String> {
    prop::sample::select(VARS)
        .prop_map(|s| s.to_string())
        .boxed()
}

fn index(s: Shape) -> BoxedStrategy<String> {
    let (lo, hi) = s.const_index;
    prop_oneof![
        3 => (lo..hi).prop_map(|c| c.to_string()),
        2 => var(),
        1 => (var(), 1i32..3).prop_map(|(v, c)| format!("{v} + {c}")),
        1 => Just("i".to_string()),
    ]
    .boxed()
}

fn atom(s: Shape) -> BoxedStrategy<String> {
    let scalar = prop_oneof![
        3 => var(),
        2 => (-3i32..6).prop_map(|c| c.to_string()),
        1 => Just("u".to_string()),
    ];
    if s.arrays.is_empty() {
        return scalar.boxed();
    }
    prop_oneof![
        3 => scalar,
        2 => (prop::sample::select(s.arrays), index(s)).prop_map(|(a, i)| format!("{a}[{i}]")),
    ]
    .boxed()
}

fn cond(s: Shape) -> BoxedStrategy<String> {
    (atom(s), prop::sample::select(CMP), atom(s))
        .prop_map(|(a, o, b)| format!("{a} {o} {b}"))
        .boxed()
}

fn expr(s: Shape) -> BoxedStrategy<String> {
    let mut options: Vec<(u32, BoxedStrategy<String>)> = vec![
        (4, atom(s)),
        (
            2,
            (atom(s), prop::sample::select(&["+", "-"][..]), atom(s))
                .prop_map(|(a, o, b)| format!("{a} {o} {b}"))
                .boxed(),
        ),
        (
            1,
            (-2i32..4, var())
                .prop_map(|(c, v)| format!("{c} * {v}"))
                .boxed(),
        ),
        (
            1,
            (cond(s), atom(s), atom(s))
                .prop_map(|(c, a, b)| format!("({c} ? {a} : {b})"))
                .boxed(),
        ),
    ];
    if s.scalar_extras {
        options.push((
            1,
            (var(), 2i32..4)
                .prop_map(|(v, c)| format!("{v} % {c}"))
                .boxed(),
        ));
    }
    prop::strategy::Union::new_weighted(options).boxed()
}

fn stmt(s: Shape, depth: u32) -> BoxedStrategy<String> {
    let mut leaves: Vec<(u32, BoxedStrategy<String>)> = vec![
        (
            4,
            (var(), expr(s))
                .prop_map(|(v, e)| format!("{v} = {e};"))
                .boxed(),
        ),
        (2, cond(s).prop_map(|c| format!("assert({c});")).boxed()),
        (1, cond(s).prop_map(|c| format!("assume({c});")).boxed()),
    ];
    if !s.arrays.is_empty() {
        leaves.push((
            3,
            (prop::sample::select(s.arrays), index(s), expr(s))
                .prop_map(|(a, i, e)| format!("{a}[{i}] = {e};"))
                .boxed(),
        ));
    }
    if s.calls {
        leaves.push((1, var().prop_map(|v| format!("{v} = f({v});")).boxed()));
    }
    if s.scalar_extras {
        leaves.push((
            1,
            (expr(s), expr(s))
                .prop_map(|(a, b)| format!("x, y = {a}, {b};"))
                .boxed(),
        ));
    }
    let leaf = prop::strategy::Union::new_weighted(leaves).boxed();
    if depth == 0 {
        return leaf;
    }
    let inner = move || prop::collection::vec(stmt(s, depth - 1), 1..3).prop_map(|v| v.join(" "));
    prop_oneof![
        5 => leaf,
        1 => (cond(s), inner(), inner())
            .prop_map(|(c, a, b)| format!("if ({c}) {{ {a} }} else {{ {b} }}")),
        1 => (1i32..4, inner()).prop_map(|(k, body)| format!(
            "for (i = 0; i < {k}; i++) {{ {body} }}"
        )),
    ]
    .boxed()
}

/// A program: `prelude`, then `void main() { int x, y, i; <locals> <init?> <body> }`.
fn program(
    s: Shape,
    prelude: BoxedStrategy<String>,
    locals: &'static str,
) -> BoxedStrategy<String> {
    (
        prelude,
        prop::collection::vec(stmt(s, 2), 1..6),
        prop::bool::ANY,
    )
        .prop_map(move |(prelude, body, init)| {
            let init = if init { "x = u; y = u;" } else { "" };
            format!(
                "{prelude}void main() {{\n  int x, y, i;\n  {locals}\n  {init}\n  {}\n}}\n",
                body.join("\n  ")
            )
        })
        .boxed()
}

/// Array-free programs with a global, `u` inputs, `?:`, `%`, parallel assignment,
/// bounded loops, calls and assertions.
pub fn scalar_program() -> BoxedStrategy<String> {
    let s = Shape {
        arrays: &[],
        const_index: (0, 1),
        calls: true,
        scalar_extras: true,
    };
    let prelude = expr(s)
        .prop_map(|e| format!("int g;\nint f(int a) {{ int x, y; x = a; y = u; return {e}; }}\n"))
        .boxed();
    program(s, prelude, "")
}

/// Programs with a global array `a[3]` (zero-initialised) and a local `b[2]` (arbitrary
/// contents), read and written at constant, variable and out-of-range indices.
pub fn array_program() -> BoxedStrategy<String> {
    program(
        Shape {
            arrays: &["a", "b"],
            const_index: (-1, 4),
            calls: false,
            scalar_extras: false,
        },
        Just("int g;\nint a[3];\n".to_string()).boxed(),
        "int b[2];",
    )
}

/// Programs with a local array `a[3]` and calls of a procedure with a nondet part.
pub fn array_call_program() -> BoxedStrategy<String> {
    program(
        Shape {
            arrays: &["a"],
            const_index: (-1, 5),
            calls: true,
            scalar_extras: false,
        },
        Just("int g;\nint f(int p) { int x; x = p + u; return x; }\n".to_string()).boxed(),
        "int a[3];",
    )
}

/// Whether some of `runs` seeded random runs of the interpreter reach an error.
pub fn interp_reaches_error(loaded: &Loaded, runs: u64) -> bool {
    (0..runs).any(|seed| run_random(loaded, seed, 10_000).outcome.is_error())
}
