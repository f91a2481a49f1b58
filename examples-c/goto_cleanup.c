// Components: transfer
// run: transfer inputs=1,1,5,1 limit=20
// expect: open_device.1 map_buffer.1 payload.5 write_len.5 write_block.1 done unmap_buffer close_device
// end: exit
// run: transfer inputs=0 limit=20
// expect: open_device.0 report_error.1
// end: exit
// run: transfer inputs=1,0 limit=20
// expect: open_device.1 map_buffer.0 close_device report_error.2
// end: exit
// run: transfer inputs=1,1,5,0 limit=20
// expect: open_device.1 map_buffer.1 payload.5 write_len.5 write_block.0 unmap_buffer close_device report_error.3
// end: exit

/*
 * A transfer with goto-based error handling, the way C device code releases what it acquired in
 * reverse order: each failure jumps to the label that undoes exactly what was done so far.
 */

int open_device(void);
int map_buffer(void);
int payload(void);
int write_block(void);
void write_len(int n);
void unmap_buffer(void);
void close_device(void);
void report_error(int code);
void done(void);

void transfer(void) {
    int error = 0;
    int ok = open_device();
    if (!ok) {
        error = 1;
        goto out;
    }
    ok = map_buffer();
    if (!ok) {
        error = 2;
        goto close;
    }
    int n = payload();
    write_len(n);
    ok = write_block();
    if (!ok) {
        error = 3;
        goto unmap;
    }
    done();
unmap:
    unmap_buffer();
close:
    close_device();
out:
    if (error != 0)
        report_error(error);
}
