// expect: unsafe
// why: every input at -6 keeps each in its range [-8, -3] and makes s = -120 < -100
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int s = 0;
  for (int i = 0; i < 20; i++) {
    int y = __VERIFIER_nondet_int();
    if (!(-8 <= y && y <= -3)) return 0;
    s = s + y;
  }
  if (s < -100) reach_error();
  return 0;
}
