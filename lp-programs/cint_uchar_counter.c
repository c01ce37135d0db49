// expect: safe
// why: an unsigned char counter wraps at 256, so 300 increments from 0 leave 44
void reach_error() {}
int main() {
  unsigned char c = 0;
  int i;
  for (i = 0; i < 300; i++) {
    c++;
  }
  if (c != 44) reach_error();
  return 0;
}
