// expect: unsafe
// why: the loop writes 41 into the cell at 500, and the procedure is called with that cell's
// value when j = 500
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
    a[i] = (i == 500 ? 41 : 42);
  }
  j = __VERIFIER_nondet_int();
  assume(j >= 0 && j < 1000);
  check(a[j]);
  return 0;
}
