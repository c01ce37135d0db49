// expect: safe
// why: b[k] is read twice with no write between, so an even b[k] stays even in is_even; count > 5000 writes b[5000], out of bounds (undefined in C; under nondet both reads are arbitrary)
// expect-bounds-nondet: unsafe
// expect-bounds-error: bounds
// assumes-in-bounds: 20
extern int __VERIFIER_nondet_int(void);
void is_even(int v) {
  if (v % 2 != 0) {
  ERROR: ;
  }
}
int main() {
  int b[5000];
  int k;
  int count = __VERIFIER_nondet_int();
  for (k = 0; k < count; k++) {
    b[k] = __VERIFIER_nondet_int();
  }
  for (k = 0; k < count; k++) {
    if (b[k] % 2 == 0) {
      is_even(b[k]);
    }
  }
  return 0;
}
