//! The connection loop: each connection accepted within the caps (in all and
//! per client), served by hyper with a header read timeout, and dropped when
//! it sits idle or stops reading what it is sent.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

use crate::limits::{self, Client, ServerLimits, TrustedProxies};

/// A connection that fails once it has been idle (nothing read or written)
/// for `idle`, or a write has waited `write` for a client that does not
/// read. Progress either way counts: an event stream that sends its
/// keep-alive lives on; a client that reads nothing of it does not.
struct Guarded<T> {
    inner: T,
    idle: Duration,
    write: Duration,
    /// When the connection last made progress.
    active: Instant,
    /// The idle deadline, armed while a read waits.
    idle_timer: Pin<Box<Sleep>>,
    /// The write deadline, armed while a write waits.
    write_timer: Option<Pin<Box<Sleep>>>,
}

impl<T> Guarded<T> {
    fn new(inner: T, idle: Duration, write: Duration) -> Guarded<T> {
        let now = Instant::now();
        Guarded {
            inner,
            idle,
            write,
            active: now,
            idle_timer: Box::pin(tokio::time::sleep_until(now + idle)),
            write_timer: None,
        }
    }

    fn progress(&mut self) {
        self.active = Instant::now();
    }
}

fn timed_out(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, what.to_string())
}

impl<T: AsyncRead + Unpin> AsyncRead for Guarded<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(r) => {
                if buf.filled().len() > before {
                    this.progress();
                }
                Poll::Ready(r)
            }
            Poll::Pending => {
                let deadline = this.active + this.idle;
                if this.idle_timer.deadline() != deadline {
                    this.idle_timer.as_mut().reset(deadline);
                }
                match this.idle_timer.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(timed_out("idle connection"))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Guarded<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_write(cx, data) {
            Poll::Ready(r) => {
                this.write_timer = None;
                if matches!(r, Ok(n) if n > 0) {
                    this.progress();
                }
                Poll::Ready(r)
            }
            Poll::Pending => {
                let write = this.write;
                let timer = this
                    .write_timer
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(write)));
                match timer.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(timed_out("client does not read"))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_write_vectored(cx, bufs) {
            Poll::Ready(r) => {
                this.write_timer = None;
                if matches!(r, Ok(n) if n > 0) {
                    this.progress();
                }
                Poll::Ready(r)
            }
            Poll::Pending => {
                let write = this.write;
                let timer = this
                    .write_timer
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(write)));
                match timer.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(timed_out("client does not read"))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// Serve `app` on `listener` until `shutdown` completes, then let the
/// requests in flight finish (at most a few seconds).
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: &ServerLimits,
    proxies: &TrustedProxies,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let proxies = Arc::new(proxies.clone());
    let connections = limits::connections(limits);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_headers(64)
        .keep_alive(true);
    let builder = Arc::new(builder);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of file descriptors, say: wait, and accept again.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Over the caps: closed at once, before anything is read. A trusted
        // proxy's connections are its clients': only the total caps them.
        let from_proxy = proxies.trusts(peer.ip());
        let Ok(place) = connections.try_hold_shared(peer.ip(), !from_proxy) else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(Guarded::new(
            stream,
            limits.idle_timeout,
            limits.write_timeout,
        ));
        let app = app.clone();
        let proxies = proxies.clone();
        let service =
            hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
                // Behind a trusted proxy, each request names its client.
                let client = if from_proxy {
                    Client(proxies.client(peer.ip(), req.headers()))
                } else {
                    Client(peer.ip())
                };
                req.extensions_mut().insert(client);
                app.clone().oneshot(req.map(axum::body::Body::new))
            });
        let conn = builder.serve_connection(io, service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _ = conn.await;
            drop(place);
        });
    }
    drop(listener);
    // Requests in flight finish; event streams have ended with the
    // shutdown signal.
    let _ = tokio::time::timeout(Duration::from_secs(5), graceful.shutdown()).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A peer that reads nothing: once the pipe is full, the write fails
    /// after the write timeout instead of waiting (or buffering) for ever.
    #[tokio::test]
    async fn a_peer_that_does_not_read_is_dropped() {
        let (ours, _theirs) = tokio::io::duplex(1024);
        let mut g = Guarded::new(ours, Duration::from_secs(60), Duration::from_millis(200));
        let started = std::time::Instant::now();
        let chunk = [b'x'; 4096];
        let mut result = Ok(());
        for _ in 0..100 {
            result = g.write_all(&chunk).await;
            if result.is_err() {
                break;
            }
        }
        let e = result.expect_err("the write times out");
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    /// A connection with nothing read or written is dropped after the idle
    /// timeout; one that keeps writing lives on.
    #[tokio::test]
    async fn an_idle_connection_is_dropped_and_a_busy_one_lives() {
        let (ours, _theirs) = tokio::io::duplex(1 << 20);
        let mut g = Guarded::new(ours, Duration::from_millis(200), Duration::from_secs(60));
        let mut buf = [0u8; 16];
        let e = g.read(&mut buf).await.expect_err("idle");
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);

        let (ours, _theirs) = tokio::io::duplex(1 << 20);
        let g = Arc::new(tokio::sync::Mutex::new(Guarded::new(
            ours,
            Duration::from_millis(300),
            Duration::from_secs(60),
        )));
        // Writes every 100 ms for 900 ms: a read waiting all that time is
        // not idle (an event stream's keep-alive).
        let writer = {
            let g = g.clone();
            tokio::spawn(async move {
                for _ in 0..9 {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    g.lock().await.write_all(b": keep-alive\n").await.unwrap();
                }
            })
        };
        let started = std::time::Instant::now();
        while started.elapsed() < Duration::from_millis(900) {
            let mut guard = g.lock().await;
            let read = tokio::time::timeout(Duration::from_millis(50), guard.read(&mut buf)).await;
            if let Ok(r) = read {
                panic!("read ended early: {r:?}");
            }
            drop(guard);
            tokio::task::yield_now().await;
        }
        writer.await.unwrap();
    }
}
