// expect: safe
// why: all 1000 cells are set to 42 by a loop with a constant bound, so the cell at any index
// in range is 42; the check is an `if` whose ERROR: label is a statement of its own
int main() {
  int a[1000];
  int i;
  int j;
  for (i = 0; i < 1000; i++) {
    a[i] = 42;
  }
  j = __VERIFIER_nondet_int();
  assume(j >= 0 && j < 1000);
  if (a[j] != 42) {
    ERROR: ;
  }
  return 0;
}
