//! Exact linear arithmetic over the rationals: linear expressions, constraints, conjunctions, integer tightening and Fourier–Motzkin projection.
