//! SV-COMP witnesses.
