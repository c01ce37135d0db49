// expect: safe
// why: fill_label.c with the check in a procedure that gets the cell's value by value: the
// value passed is a[j], which the loop set to 42
void check(int v) {
  if (v != 42) {
    ERROR: ;
  }
}
int main() {
  int a[1000];
  int i;
  int j;
  for (i = 0; i < 1000; i++) {
    a[i] = 42;
  }
  j = __VERIFIER_nondet_int();
  assume(j >= 0 && j < 1000);
  check(a[j]);
  return 0;
}
