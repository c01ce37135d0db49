// expect: unsafe
// why: c wraps from 255 to 0, so after 256 increments it is 0 again and c == 0 holds
void reach_error() {}
int main() {
  unsigned char c = 0;
  int i;
  for (i = 0; i < 256; i++) {
    c++;
  }
  if (c == 0) reach_error();
  return 0;
}
