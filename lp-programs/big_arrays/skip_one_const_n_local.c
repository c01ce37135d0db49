// expect: safe
// why: the fill writes 42 into every cell of the local array
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int a[100000];
  for (int i = 0; i < 100000; i++) {
    a[i] = 42;
  }
  int j = __VERIFIER_nondet_int();
  if (!(0 <= j && j < 100000)) return 0;
  if (a[j] != 42) reach_error();
  return 0;
}
