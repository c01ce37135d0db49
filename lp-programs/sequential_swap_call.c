// expect: safe
// why: {10,20,30} -swap(0,1)-> {20,10,30} -swap(1,2)-> {20,30,10} -swap(0,2)-> {10,30,20}
int a[3] = {10, 20, 30};

void swap(int i, int j) {
  int t;
  t = a[i];
  a[i] = a[j];
  a[j] = t;
}

void main() {
  swap(0, 1);
  swap(1, 2);
  swap(0, 2);
  if (a[0] != 10 || a[1] != 30 || a[2] != 20)
    ERROR: ;
}
