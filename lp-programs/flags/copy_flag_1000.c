// expect: safe
// why: b is a copy of a, so the loop comparing them never clears the flag (the flag set in
// a branch of the check loop: its condition decides the error, not the loops' counts)
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int a[1000], b[1000];
  for (int i = 0; i < 1000; i++)
    a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < 1000; i++)
    b[i] = a[i];
  int same = 1;
  for (int i = 0; i < 1000; i++) {
    if (a[i] != b[i])
      same = 0;
  }
  __VERIFIER_assert(same);
  return 0;
}
