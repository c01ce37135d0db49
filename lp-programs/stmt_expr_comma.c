// expect: safe
// why: ({ t = 2x; t + 1; }) is 7 for x = 3; (x++, x + 10) makes x 4 and z 14; the (void) comma adds 1 to x
int twice(int v) { return 2 * v; }
int main(void) {
  int x = 3;
  int y = ({ int t = twice(x); t + 1; });
  int z = (x++, x + 10);
  (void)(x = x + 1, 0);
  if (y != 7 || z != 14 || x != 5)
    reach_error();
  return 0;
}
