// expect: safe
// why: conversion to _Bool gives 0 or 1, whatever the nondet int
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  _Bool b = __VERIFIER_nondet_int();
  int k = b;
  if (k > 1 || k < 0) reach_error();
  return 0;
}
