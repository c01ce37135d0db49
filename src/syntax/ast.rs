//! The abstract syntax tree of the input language (ARCHITECTURE.md §3): a C subset plus
//! EUREKA's extensions. Every node carries a [`Span`]. Names are plain strings here; `sema`
//! resolves them. The parser keeps C constructs that lie outside the fragment (pointers,
//! structs, floats, ...) as [`Ty::Unsupported`] / [`ExprKind::Unsupported`] nodes so that
//! `sema` can report them as *unsupported* (UNKNOWN), not as syntax errors.

use crate::diag::Span;
use num_bigint::BigInt;

/// An identifier with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it is written.
    pub span: Span,
}

/// A whole translation unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Top-level items in source order.
    pub items: Vec<Item>,
    /// The whole file.
    pub span: Span,
}

/// A top-level item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// `int x, a[3] = {1,2,3};` at top level (globals). `extern`/`static`/`const` are kept
    /// in [`Decl::storage`].
    Decl(Decl),
    /// A procedure definition with a body.
    Func(FuncDef),
    /// A prototype `extern int f(int);` or `void g(void);` (no body).
    Proto(FuncProto),
    /// `typedef ...;`: the names it declares, resolved to integer types where they are.
    Typedef(Typedef),
    /// A top-level construct the parser recognised but lpmc does not model and that has
    /// no effect on the verdict when unused (a `struct` declaration, `_Static_assert`,
    /// top-level `asm`). Kept as its source text for the pretty-printer.
    Other {
        /// What it is ("typedef", "struct declaration", ...).
        what: String,
        /// Its source text, verbatim.
        text: String,
        /// Where it is.
        span: Span,
    },
}

/// The rank of a C integer type (C11 §6.2.5), independent of signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IntKind {
    /// `_Bool` (and `bool`).
    Bool,
    /// `char`.
    Char,
    /// `short`.
    Short,
    /// `int` (also `enum` types).
    Int,
    /// `long`.
    Long,
    /// `long long`.
    LongLong,
    /// `__int128`.
    Int128,
}

/// A C integer type: its rank and signedness. Plain `char` is signed (gcc on x86); `_Bool`
/// is unsigned. Its size depends on the data model (`sema::DataModel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IntTy {
    /// The rank.
    pub kind: IntKind,
    /// Whether the type is signed.
    pub signed: bool,
}

impl IntTy {
    /// `int`.
    pub const INT: IntTy = IntTy {
        kind: IntKind::Int,
        signed: true,
    };
    /// `_Bool`.
    pub const BOOL: IntTy = IntTy {
        kind: IntKind::Bool,
        signed: false,
    };
    /// A type of rank `kind`, signed unless `unsigned` (`_Bool` is always unsigned).
    pub fn new(kind: IntKind, unsigned: bool) -> IntTy {
        IntTy {
            kind,
            signed: !unsigned && kind != IntKind::Bool,
        }
    }
}

/// How an integer literal was written: its suffix and base decide its C type
/// (C11 §6.4.4.1). The value itself is in [`ExprKind::Int`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct IntLit {
    /// A `u`/`U` suffix.
    pub unsigned: bool,
    /// The number of `l`/`L` in the suffix (0, 1 or 2).
    pub longs: u8,
    /// Written in hex or octal (such literals may take unsigned types without `u`).
    pub non_decimal: bool,
}

/// A C type as far as lpmc cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `int`, `long`, `short`, `char`, `_Bool`, `unsigned ...`, `enum` types and typedef
    /// names of integer types. lpmc's integers are mathematical today; `unsigned` values
    /// are never negative.
    Int {
        /// The C type.
        int: IntTy,
        /// The spelling, e.g. `"unsigned int"` or `"size_t"`, for the pretty-printer.
        spelling: String,
    },
    /// `void`.
    Void,
    /// A type outside the fragment (`float`, `double`, `struct s`, a typedef name of
    /// such a type, ...), spelled as in the source.
    Unsupported {
        /// The spelling, e.g. `"float"` or `"struct s"`.
        spelling: String,
    },
}

impl Ty {
    /// The integer type, if this is one.
    pub fn int(&self) -> Option<IntTy> {
        match self {
            Ty::Int { int, .. } => Some(*int),
            _ => None,
        }
    }
}

/// One `enum` definition `enum E { A, B = 5, C }`: its constants are integer constants in
/// the scope of the declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumDef {
    /// The tag, if any.
    pub name: Option<Ident>,
    /// The constants in order, with their explicit values.
    pub items: Vec<(Ident, Option<Expr>)>,
    /// The specifier.
    pub span: Span,
}

/// `typedef T n1, *n2, ...;`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Typedef {
    /// The declared names with their types: an integer type when the name denotes one,
    /// else [`Ty::Unsupported`] spelled as the name.
    pub names: Vec<(Ident, Ty)>,
    /// `enum` definitions in the specifiers (`typedef enum { A, B } t;`).
    pub enums: Vec<EnumDef>,
    /// The source text, verbatim, for the pretty-printer.
    pub text: String,
    /// The whole declaration.
    pub span: Span,
}

/// Storage-class and qualifier words in front of a declaration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Storage {
    /// `extern`
    pub is_extern: bool,
    /// `static`
    pub is_static: bool,
    /// `const`
    pub is_const: bool,
}

/// One declaration statement: a type and one or more declarators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decl {
    /// Storage class and qualifiers.
    pub storage: Storage,
    /// The base type.
    pub ty: Ty,
    /// The declared names (none for a bare `enum E { ... };` or `struct s { ... };`).
    pub vars: Vec<VarDecl>,
    /// `enum` definitions in the specifiers, whose constants come into scope here.
    pub enums: Vec<EnumDef>,
    /// The whole declaration.
    pub span: Span,
}

/// One declarator: `x`, `x = e`, `a[N]`, `a[N] = {e, ...}`, `*p` (unsupported).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    /// The declared name.
    pub name: Ident,
    /// Number of `*` in front of the name (non-zero means a pointer: unsupported).
    pub pointer: u8,
    /// Array dimensions, outermost first (empty for a scalar). More than one dimension is
    /// unsupported. `None` for `a[]` with the size taken from the initialiser.
    pub dims: Vec<Option<Expr>>,
    /// The initialiser.
    pub init: Option<Init>,
    /// The declarator.
    pub span: Span,
}

/// An initialiser.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Init {
    /// `= e`
    Expr(Expr),
    /// `= {e1, e2, ...}`.
    List(Vec<Expr>, Span),
    /// A nested or designated list `= {{1, 2}, [3] = 4, .f = 5}` (outside the fragment),
    /// kept verbatim.
    Nested(String, Span),
}

/// A procedure parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its type.
    pub ty: Ty,
    /// Number of `*` (non-zero: unsupported).
    pub pointer: u8,
    /// Its name (prototypes may omit names).
    pub name: Option<Ident>,
    /// `int a[]` / `int a[10]` parameters (unsupported: arrays are not passed by value).
    pub is_array: bool,
    /// The whole parameter.
    pub span: Span,
}

/// A prototype: return type, name and parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuncProto {
    /// Storage words (`extern`, `static`).
    pub storage: Storage,
    /// Return type.
    pub ret: Ty,
    /// Number of `*` on the return type.
    pub ret_pointer: u8,
    /// Name.
    pub name: Ident,
    /// Parameters; `f(void)` gives an empty list with `void_params` set.
    pub params: Vec<Param>,
    /// Written as `f(void)`.
    pub void_params: bool,
    /// Ends with `...`.
    pub variadic: bool,
    /// `__attribute__((...))` clauses, verbatim, for the pretty-printer.
    pub attributes: Vec<String>,
    /// The prototype.
    pub span: Span,
}

/// A procedure definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuncDef {
    /// The signature.
    pub proto: FuncProto,
    /// The body (a block).
    pub body: Stmt,
    /// The whole definition.
    pub span: Span,
}

/// A statement with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where it is.
    pub span: Span,
}

/// Assignment operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `+=`
    Add,
    /// `-=`
    Sub,
    /// `*=`
    Mul,
    /// `/=`
    Div,
    /// `%=`
    Mod,
    /// `&=` (unsupported)
    BitAnd,
    /// `|=` (unsupported)
    BitOr,
    /// `^=` (unsupported)
    BitXor,
    /// `<<=` (unsupported)
    Shl,
    /// `>>=` (unsupported)
    Shr,
}

/// The statement forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    /// A local declaration.
    Decl(Decl),
    /// Parallel assignment `x, a[i] = e1, e2;` (one target for plain `x = e;`). Targets
    /// are lvalues (variables or array elements). The numbers of targets and values are
    /// equal (the parser checks).
    Assign {
        /// Targets.
        lhs: Vec<Expr>,
        /// Values.
        rhs: Vec<Expr>,
    },
    /// `x op= e` for `op` other than `=`.
    CompoundAssign {
        /// Target lvalue.
        lhs: Expr,
        /// The operator.
        op: AssignOp,
        /// The value.
        rhs: Expr,
    },
    /// `x++`, `++x`, `x--`, `--x` as a statement.
    IncDec {
        /// Target lvalue.
        lhs: Expr,
        /// `++` (else `--`).
        inc: bool,
        /// Prefix form.
        prefix: bool,
    },
    /// An expression statement, usually a call: `f(x);`, `reach_error();`,
    /// `assert(b);`, `__VERIFIER_assume(b);`.
    Expr(Expr),
    /// `if (c) s1 else s2`
    If {
        /// Condition.
        cond: Expr,
        /// Then branch.
        then: Box<Stmt>,
        /// Else branch.
        els: Option<Box<Stmt>>,
    },
    /// `while (c) s`
    While {
        /// Condition.
        cond: Expr,
        /// Body.
        body: Box<Stmt>,
    },
    /// `do s while (c);`
    DoWhile {
        /// Body.
        body: Box<Stmt>,
        /// Condition.
        cond: Expr,
    },
    /// `for (init; cond; step) body`. `init` is a declaration, an assignment, or a
    /// comma-separated list of simple statements (held as a `Block` without braces).
    For {
        /// Initialisation (a `Decl`, a simple statement, or a `Block` of them).
        init: Option<Box<Stmt>>,
        /// Condition (`None` means true).
        cond: Option<Expr>,
        /// Step (a simple statement or a `Block` of them).
        step: Option<Box<Stmt>>,
        /// Body.
        body: Box<Stmt>,
    },
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return;` or `return e;`
    Return(Option<Expr>),
    /// `skip;` (EUREKA's explicit skip)
    Skip,
    /// `;`
    Empty,
    /// `{ s1 s2 ... }`
    Block(Vec<Stmt>),
    /// `L: s` (`ERROR:` marks an error location).
    Labeled {
        /// The label.
        label: Ident,
        /// The labelled statement.
        stmt: Box<Stmt>,
    },
    /// `goto L;`: a jump within the procedure.
    Goto(Ident),
    /// `switch (e) s`.
    Switch {
        /// The controlling expression.
        cond: Expr,
        /// The body, with `case` and `default` labels inside.
        body: Box<Stmt>,
    },
    /// `case e: s` (inside a `switch`).
    Case {
        /// The constant.
        value: Expr,
        /// The labelled statement.
        stmt: Box<Stmt>,
    },
    /// `default: s` (inside a `switch`).
    Default(Box<Stmt>),
    /// A local `typedef`.
    Typedef(Typedef),
    /// A local function declaration `int f(int);`.
    Proto(FuncProto),
    /// A statement outside the fragment that the parser keeps verbatim (`asm`).
    Other {
        /// What it is.
        what: String,
        /// Its source text.
        text: String,
    },
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-e`
    Neg,
    /// `+e`
    Plus,
    /// `!e`
    Not,
    /// `~e` (unsupported)
    BitNot,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `&` (unsupported)
    BitAnd,
    /// `|` (unsupported)
    BitOr,
    /// `^` (unsupported)
    BitXor,
    /// `<<` (unsupported)
    Shl,
    /// `>>` (unsupported)
    Shr,
}

/// An expression with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// The expression forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// An integer constant (decimal, hex or octal) with its suffix and base, which decide
    /// its C type. Character constants `'a'` parse to their code (type `int`).
    Int(BigInt, IntLit),
    /// A name. The identifier `u` stays a `Var` here; `sema` reads it as the undefined
    /// value unless a variable `u` is in scope.
    Var(Ident),
    /// `a[e]`. Only a name can be indexed; `a[i][j]` parses with `base` an `Index`
    /// (unsupported).
    Index {
        /// The indexed expression (a `Var` naming an array).
        base: Box<Expr>,
        /// The index.
        index: Box<Expr>,
    },
    /// `op e`
    Unary {
        /// The operator.
        op: UnOp,
        /// The operand.
        e: Box<Expr>,
    },
    /// `l op r`
    Binary {
        /// The operator.
        op: BinOp,
        /// Left operand.
        l: Box<Expr>,
        /// Right operand.
        r: Box<Expr>,
    },
    /// `(c ? t : e)`
    Cond {
        /// Guard.
        c: Box<Expr>,
        /// Value if the guard is non-zero.
        t: Box<Expr>,
        /// Value if the guard is zero.
        e: Box<Expr>,
    },
    /// `f(args)`
    Call {
        /// The callee's name.
        func: Ident,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `(type) e`: a cast to an integer type is the identity today (lpmc's integers are
    /// mathematical), except to `_Bool`; a cast to `void` discards the value; other casts
    /// are unsupported.
    Cast {
        /// Target type.
        ty: Ty,
        /// Number of `*` in the cast type.
        pointer: u8,
        /// Operand.
        e: Box<Expr>,
    },
    /// `&e` (only in `klee_make_symbolic(&x, ...)`; elsewhere unsupported).
    AddrOf(Box<Expr>),
    /// `*e` (unsupported).
    Deref(Box<Expr>),
    /// `sizeof(type)`, `sizeof(type[N])`.
    SizeofType {
        /// The type.
        ty: Ty,
        /// Number of `*`.
        pointer: u8,
        /// Array dimensions of an abstract declarator `int[3]`.
        dims: Vec<Expr>,
    },
    /// `sizeof e` (not evaluated).
    SizeofExpr(Box<Expr>),
    /// `l, r`: the comma operator (inside parentheses, conditions and `return`).
    Comma {
        /// Evaluated first, value discarded.
        l: Box<Expr>,
        /// Evaluated second; the value.
        r: Box<Expr>,
    },
    /// A GNU statement expression `({ s1; ...; e; })`: the value is that of the last
    /// expression statement. Holds the block.
    StmtExpr(Box<Stmt>),
    /// `e.f` or `e->f` (structs are outside the fragment).
    Member {
        /// The structure (or pointer).
        base: Box<Expr>,
        /// The field.
        field: Ident,
        /// `->`.
        arrow: bool,
    },
    /// An expression form outside the fragment, kept verbatim: compound literals,
    /// `_Generic`, `__builtin_offsetof`, calls through function pointers, ...
    Other {
        /// What it is.
        what: String,
        /// Its source text.
        text: String,
    },
    /// A string literal, with its escapes as written (between the quotes).
    Str(String),
    /// An assignment used as an expression, e.g. `a[i] = a[j] = 0` or `x = y++` inside
    /// another expression (unsupported unless it is a whole statement).
    Assign {
        /// Target.
        lhs: Box<Expr>,
        /// Operator.
        op: AssignOp,
        /// Value.
        rhs: Box<Expr>,
    },
    /// `e++`, `++e`, `e--`, `--e` inside an expression (unsupported unless a statement).
    IncDec {
        /// Target.
        e: Box<Expr>,
        /// `++` (else `--`).
        inc: bool,
        /// Prefix form.
        prefix: bool,
    },
    /// A floating-point literal, as written (unsupported).
    Float(String),
}

impl Expr {
    /// A new expression.
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
}

impl Stmt {
    /// A new statement.
    pub fn new(kind: StmtKind, span: Span) -> Stmt {
        Stmt { kind, span }
    }
}
