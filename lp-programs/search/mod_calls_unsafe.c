// expect: unsafe
// why: y = 60 (60 % 3 == 0, step gives 20) and z = -9 ((z + 9) % 4 == 0) in all 40 iterations pass both checks and give s = 800 > 150, t = 0 < 70
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int step(int y) {
  if (y % 3 == 0) return y / 3;
  return y % 7;
}
int main(void) {
  int s = 0, t = 0;
  for (int i = 0; i < 40; i++) {
    int y = __VERIFIER_nondet_int();
    if (!(5 <= y && y <= 60)) return 0;
    int z = __VERIFIER_nondet_int();
    if (!(-9 <= z && z <= 9)) return 0;
    s = s + step(y);
    t = t + (z + 9) % 4;
  }
  if (s > 150 && t < 70) reach_error();
  return 0;
}
