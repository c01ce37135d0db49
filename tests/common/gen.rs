//! Random small programs for the differential tests (proptest strategies), and the
//! interpreter as their oracle. One generator, configured by [`Shape`]: which arrays the
//! statements may read and write, which scalars and loop bounds they use, whether they call
//! a procedure, and whether they sweep the arrays in loops.

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
    /// The scalars that statements assign and read (the program declares them).
    pub vars: &'static [&'static str],
    /// Scalars that are read (as atoms and indices, also `r + 1`, `r - 1`) but never
    /// assigned: a size, or the loop counter outside its loop.
    pub reads: &'static [&'static str],
    /// Loop bounds besides the constants 1..3.
    pub bounds: &'static [&'static str],
    /// Sweeps `for (i = 0; i < B; i++) { ... a[i] ... }` (fills, copies, sums, counts,
    /// checks), and checks of `a[j]` at the scalar `j` (one of `vars`, redrawn or not),
    /// guarded by `0 <= j && j < B` or not; each program has a fill and a check. Needs two
    /// arrays and the scalars `j` and `n`.
    pub sweeps: bool,
}

/// The scalars of most shapes (`g` is a global of the prelude).
const VARS: &[&str] = &["x", "y", "g"];
const CMP: &[&str] = &["<", "<=", "==", "!=", ">", ">="];

fn var(s: Shape) -> BoxedStrategy<String> {
    prop::sample::select(s.vars)
        .prop_map(|s| s.to_string())
        .boxed()
}

fn index(s: Shape) -> BoxedStrategy<String> {
    let (lo, hi) = s.const_index;
    let mut options: Vec<(u32, BoxedStrategy<String>)> = vec![
        (3, (lo..hi).prop_map(|c| c.to_string()).boxed()),
        (2, var(s)),
        (
            1,
            (var(s), 1i32..3)
                .prop_map(|(v, c)| format!("{v} + {c}"))
                .boxed(),
        ),
        (1, Just("i".to_string()).boxed()),
    ];
    if !s.reads.is_empty() {
        options.push((
            2,
            prop::sample::select(s.reads)
                .prop_map(str::to_string)
                .boxed(),
        ));
        options.push((
            1,
            (
                prop::sample::select(s.reads),
                prop::sample::select(&["+", "-"][..]),
            )
                .prop_map(|(r, o)| format!("{r} {o} 1"))
                .boxed(),
        ));
    }
    prop::strategy::Union::new_weighted(options).boxed()
}

/// A loop bound: a constant 1..3 or one of the shape's bounds.
fn bound(s: Shape) -> BoxedStrategy<String> {
    let k = (1i32..4).prop_map(|k| k.to_string());
    if s.bounds.is_empty() {
        return k.boxed();
    }
    prop_oneof![
        1 => k,
        3 => prop::sample::select(s.bounds).prop_map(str::to_string),
    ]
    .boxed()
}

fn atom(s: Shape) -> BoxedStrategy<String> {
    let mut scalars: Vec<(u32, BoxedStrategy<String>)> = vec![
        (3, var(s)),
        (2, (-3i32..6).prop_map(|c| c.to_string()).boxed()),
        (1, Just("u".to_string()).boxed()),
    ];
    if !s.reads.is_empty() {
        scalars.push((
            1,
            prop::sample::select(s.reads)
                .prop_map(str::to_string)
                .boxed(),
        ));
    }
    let scalar = prop::strategy::Union::new_weighted(scalars);
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
            (-2i32..4, var(s))
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
            (var(s), 2i32..4)
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
            (var(s), expr(s))
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
        leaves.push((1, var(s).prop_map(|v| format!("{v} = f({v});")).boxed()));
    }
    if s.scalar_extras {
        leaves.push((
            1,
            (expr(s), expr(s))
                .prop_map(|(a, b)| format!("x, y = {a}, {b};"))
                .boxed(),
        ));
    }
    if s.sweeps {
        leaves.push((1, check(s)));
    }
    let leaf = prop::strategy::Union::new_weighted(leaves).boxed();
    if depth == 0 {
        return leaf;
    }
    let inner = move || prop::collection::vec(stmt(s, depth - 1), 1..3).prop_map(|v| v.join(" "));
    let mut options: Vec<(u32, BoxedStrategy<String>)> = vec![
        (5, leaf),
        (
            1,
            (cond(s), inner(), inner())
                .prop_map(|(c, a, b)| format!("if ({c}) {{ {a} }} else {{ {b} }}"))
                .boxed(),
        ),
        (
            1,
            (bound(s), inner())
                .prop_map(|(k, body)| format!("for (i = 0; i < {k}; i++) {{ {body} }}"))
                .boxed(),
        ),
    ];
    if s.sweeps {
        options.push((2, sweep(s)));
        options.push((4, fill_then_check(s)));
    }
    prop::strategy::Union::new_weighted(options).boxed()
}

/// A check of one cell at the index `j`: `j` redrawn (`j = u;`) or not, then
/// `assert(a[j] op t);` under `assume(0 <= j && j < B);`, under `if (0 <= j && j < B)`,
/// or unguarded (`j` possibly negative or out of range).
fn check(s: Shape) -> BoxedStrategy<String> {
    (
        prop::bool::ANY,
        0u8..3,
        bound(s),
        prop::sample::select(s.arrays),
        prop::sample::select(CMP),
        atom(s),
    )
        .prop_map(|(redraw, guard, b, a, o, t)| {
            let redraw = if redraw { "j = u; " } else { "" };
            let c = format!("{a}[j] {o} {t}");
            match guard {
                0 => format!("{redraw}assume(0 <= j && j < {b}); assert({c});"),
                1 => format!("{redraw}if (0 <= j && j < {b}) {{ assert({c}); }}"),
                _ => format!("{redraw}assert({c});"),
            }
        })
        .boxed()
}

/// The values a fill writes into `a[#]`: `@` is the other array, `C` a constant.
const FILLS: &[&str] = &[
    "C", "C", "#", "# + C", "2 * #", "n - #", "x", "@[#]", "@[#] + C",
];

/// The loops of a fill or update up to `B`: mostly every cell below `B` in order, else
/// backwards, or skipping cells (0, or every other one).
const LOOPS: &[&str] = &[
    "for (i = 0; i < B; i++)",
    "for (i = 0; i < B; i++)",
    "for (i = 0; i < B; i++)",
    "for (i = 0; i < B; i++)",
    "for (i = 0; i < B; i++)",
    "for (i = 0; i < B; i++)",
    "for (i = B - 1; i >= 0; i--)",
    "for (i = B - 1; i >= 0; i--)",
    "for (i = 1; i < B; i++)",
    "for (i = 0; i < B; i += 2)",
    "for (i = B - 1; i > 0; i--)",
];

/// A fill `for (i = 0; i < B1; i++) a[i] = t(i);` (or another of [`LOOPS`]), maybe an
/// update `a[i] = a[i] + d;` up to `B2`, then a check of the cells against `t + d` (give
/// or take one) up to `B3`: at a nondet `j` (assumed, or tested, in range), in a loop, or
/// of their sum when `t` is constant. Safe when the loops, the bounds and the comparison
/// agree, unsafe otherwise. Rarely, `n` changes first (a VLA keeps its size).
fn fill_then_check(s: Shape) -> BoxedStrategy<String> {
    let arrays = prop::sample::subsequence(s.arrays, 2).prop_shuffle();
    let delta = prop_oneof![10 => Just(0i32), 1 => Just(1), 1 => Just(-1)];
    let op = prop::sample::select(&["==", "==", "==", "==", ">=", "<=", "!="][..]);
    // The update and the check mostly go as far as the fill.
    let same_or = || prop::option::weighted(0.2, bound(s));
    let (fill, update) = (prop::sample::select(LOOPS), prop::sample::select(LOOPS));
    let resize = prop_oneof![18 => Just(""), 1 => Just("n = n + 1; "), 1 => Just("n = n - 1; ")];
    // Sometimes the fill also writes a neighbour, which the next iteration may overwrite.
    let neighbour = prop::option::weighted(
        0.15,
        (prop::sample::select(&["i + 1", "i - 1"][..]), 0i32..4),
    );
    (
        (arrays, prop::sample::select(FILLS), 0i32..4, bound(s)),
        (fill, resize, neighbour),
        (
            prop::option::weighted(0.35, (same_or(), 1i32..3, update)),
            same_or(),
        ),
        (0u8..4, op, delta),
    )
        .prop_map(
            |((ab, t, c, b1), (fill, resize, nb), (update, b3), (form, op, delta))| {
                let (a, b) = (ab[0], ab[1]);
                let t = t.replace('@', b).replace('C', &c.to_string());
                let at = |i: &str| t.replace('#', i);
                let nb = nb
                    .map(|(i, v)| format!(" {a}[{i}] = {v};"))
                    .unwrap_or_default();
                let fill = fill.replace('B', &b1);
                let mut out = format!("{resize}{fill} {{ {a}[i] = {};{nb} }} ", at("i"));
                let d = match update {
                    Some((b2, d, update)) => {
                        let update = update.replace('B', &b2.unwrap_or_else(|| b1.clone()));
                        out += &format!("{update} {{ {a}[i] = {a}[i] + {d}; }} ");
                        d
                    }
                    None => 0,
                };
                let d = d + delta;
                let b3 = b3.unwrap_or(b1);
                let want_j = format!("{} + {d}", at("j"));
                let want_i = format!("{} + {d}", at("i"));
                let guard = format!("0 <= j && j < {b3}");
                let up_to_b3 = format!("for (i = 0; i < {b3}; i++)");
                out += &match form {
                    0 => format!("j = u; assume({guard}); assert({a}[j] {op} {want_j});"),
                    1 => format!("if ({guard}) {{ assert({a}[j] {op} {want_j}); }}"),
                    3 if !t.contains('#') && !t.contains('x') => format!(
                        "y = 0; {up_to_b3} {{ y = y + {a}[i]; }} assert(y {op} {} * ({b3}));",
                        c + d
                    ),
                    _ => format!("{up_to_b3} {{ assert({a}[i] {op} {want_i}); }}"),
                };
                out
            },
        )
        .boxed()
}

/// A loop over `i < B` whose body works on the cells at `i` (one or two of: a fill
/// `a[i] = e;` or at another index, a copy `a[i] = b[i] + c;`, a conditional write, a check
/// of `a[i]`); or a sum or count of the cells into a scalar, then maybe a check of it.
fn sweep(s: Shape) -> BoxedStrategy<String> {
    let arr = || prop::sample::select(s.arrays);
    let at_i = prop_oneof![3 => Just("i".to_string()), 1 => index(s)];
    let body = prop_oneof![
        4 => (arr(), at_i, expr(s)).prop_map(|(a, i, e)| format!("{a}[{i}] = {e};")),
        2 => (arr(), arr(), -1i32..2).prop_map(|(a, b, c)| format!("{a}[i] = {b}[i] + {c};")),
        1 => (cond(s), arr(), expr(s))
            .prop_map(|(c, a, e)| format!("if ({c}) {{ {a}[i] = {e}; }}")),
        2 => (arr(), prop::sample::select(CMP), atom(s))
            .prop_map(|(a, o, t)| format!("assert({a}[i] {o} {t});")),
    ];
    let fold = prop_oneof![
        2 => arr().prop_map(|a| format!("{a}[i]")),
        1 => (arr(), prop::sample::select(CMP), atom(s))
            .prop_map(|(a, o, t)| format!("({a}[i] {o} {t} ? 1 : 0)")),
    ];
    let then_check = prop::option::of((prop::sample::select(CMP), expr(s)));
    prop_oneof![
        3 => (bound(s), prop::collection::vec(body, 1..3)).prop_map(|(b, body)| format!(
            "for (i = 0; i < {b}; i++) {{ {} }}",
            body.join(" ")
        )),
        1 => (var(s), bound(s), fold, then_check).prop_map(|(v, b, f, c)| {
            let c = c.map(|(o, e)| format!(" assert({v} {o} {e});")).unwrap_or_default();
            format!("{v} = 0; for (i = 0; i < {b}; i++) {{ {v} = {v} + {f}; }}{c}")
        }),
    ]
    .boxed()
}

/// A program: `prelude`, then `void main() { int x, y, i; <locals> <init?> <body> }`.
fn program(
    s: Shape,
    prelude: BoxedStrategy<String>,
    locals: &'static str,
) -> BoxedStrategy<String> {
    let mut body = prop::collection::vec(stmt(s, 2), 1..6).boxed();
    if s.sweeps {
        // One fill and check, anywhere among fewer other statements.
        body = (
            prop::collection::vec(stmt(s, 2), 0..2),
            fill_then_check(s),
            any::<prop::sample::Index>(),
        )
            .prop_map(|(mut v, p, at)| {
                v.insert(at.index(v.len() + 1), p);
                v
            })
            .boxed();
    }
    (prelude, body, prop::bool::ANY)
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
        vars: VARS,
        reads: &[],
        bounds: &[],
        sweeps: false,
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
            vars: VARS,
            reads: &[],
            bounds: &[],
            sweeps: false,
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
            vars: VARS,
            reads: &[],
            bounds: &[],
            sweeps: false,
        },
        Just("int g;\nint f(int p) { int x; x = p + u; return x; }\n".to_string()).boxed(),
        "int a[3];",
    )
}

/// Programs whose arrays get symbolic cells (over 64 cells, or of variable size): a size
/// `n` that is nondet, loops up to `n` (or `n ± 1`) filling, copying, summing and checking
/// the cells, and checks of `a[j]` at a nondet `j` (in range or not). Either `a` and `b`
/// are variable-length arrays of size `n` (`0 < n <= 6`, `<= 1000`, or `<= 300` with `char`
/// cells; the random runs draw mostly small values), or `a[100]` is a global (zeroed) and
/// `b[100]` a local (arbitrary), swept up to `n <= 5`, maybe with calls of a procedure that
/// increments a prefix of `a`.
pub fn vla_program() -> BoxedStrategy<String> {
    const VLA6: &str = "int j, n;\n  n = u;\n  assume(0 < n && n <= 6);\n  int a[n], b[n];";
    const VLA1000: &str = "int j, n;\n  n = u;\n  assume(0 < n && n <= 1000);\n  int a[n], b[n];";
    const FIXED: &str = "int j, n;\n  int b[100];\n  n = u;\n  assume(0 <= n && n <= 5);";
    const FIXED_CALLS: &str = "int g;\nint a[100];\nint f(int p) {\n  int i;\n  \
        for (i = 0; i < p; i++) { a[i] = a[i] + 1; }\n  return a[p];\n}\n";
    const VLA_CHAR: &str =
        "int j, n;\n  n = u;\n  assume(0 < n && n <= 300);\n  unsigned char a[n];\n  char b[n];";
    let s = Shape {
        arrays: &["a", "b"],
        const_index: (-1, 3),
        calls: false,
        scalar_extras: false,
        vars: &["x", "y", "g", "j"],
        reads: &["i", "n"],
        bounds: &["n", "n", "n", "n - 1", "n + 1"],
        sweeps: true,
    };
    prop_oneof![
        2 => program(s, Just("int g;\n".to_string()).boxed(), VLA6),
        1 => program(s, Just("int g;\n".to_string()).boxed(), VLA1000),
        1 => program(s, Just("int g;\n".to_string()).boxed(), VLA_CHAR),
        2 => program(
            s,
            Just("int g;\nint a[100];\n".to_string()).boxed(),
            FIXED,
        ),
        1 => program(Shape { calls: true, ..s }, Just(FIXED_CALLS.to_string()).boxed(), FIXED),
    ]
    .boxed()
}

/// Whether some of `runs` seeded random runs of the interpreter reach an error.
pub fn interp_reaches_error(loaded: &Loaded, runs: u64) -> bool {
    (0..runs).any(|seed| run_random(loaded, seed, 10_000).outcome.is_error())
}
