// expect: safe
// why: the backward goto runs the body 4 times, adding 2 each time, so s == 8 after it
int main(void) {
  int i = 0, s = 0;
again:
  if (i < 4) {
    s = s + 2;
    i++;
    goto again;
  }
  if (s != 8)
    reach_error();
  return 0;
}
