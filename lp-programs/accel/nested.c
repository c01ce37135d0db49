// expect: safe
// why: the inner loop adds 7 to s and leaves j = 7, so after 10^7 outer iterations s = 7i
void reach_error() {}
int main() {
  unsigned i = 0, j = 0, s = 0;
  while (i < 10000000u) {
    j = 0;
    while (j < 7u) {
      j++;
      s++;
    }
    i++;
  }
  if (s != 70000000u) reach_error();
  return 0;
}
