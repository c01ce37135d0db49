//! The SMT layer: a backend-neutral query language, the `SmtBackend` trait, and its cvc5 adapter (the only file that names cvc5 types).
