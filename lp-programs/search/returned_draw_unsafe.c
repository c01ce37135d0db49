// expect: unsafe
// why: get() returning 7 every time passes the caller's check (3 <= d <= 9) and makes s = 112 > 90
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int get(void) { return __VERIFIER_nondet_int(); }
int main(void) {
  int s = 0;
  for (int i = 0; i < 16; i++) {
    int d = get();
    if (!(3 <= d && d <= 9)) return 0;
    s = s + d;
  }
  if (s > 90) reach_error();
  return 0;
}
