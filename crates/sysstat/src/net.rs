//! `/proc/net/dev`: bytes and packets per network interface, received and sent, after two
//! header lines (`face |bytes packets errs drop fifo frame compressed multicast|bytes packets
//! errs drop fifo colls carrier compressed`).

/// One interface's traffic (cumulative, or a delta from [`NetDev::since`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetDev {
    pub name: String,
    pub rx_bytes: u64,
    pub rx_packets: u64,
    pub tx_bytes: u64,
    pub tx_packets: u64,
}

impl NetDev {
    pub fn since(&self, earlier: &NetDev) -> NetDev {
        NetDev {
            name: self.name.clone(),
            rx_bytes: self.rx_bytes.saturating_sub(earlier.rx_bytes),
            rx_packets: self.rx_packets.saturating_sub(earlier.rx_packets),
            tx_bytes: self.tx_bytes.saturating_sub(earlier.tx_bytes),
            tx_packets: self.tx_packets.saturating_sub(earlier.tx_packets),
        }
    }
}

/// Every interface of the file's text (the name may touch its first number: `eth0:123`).
pub fn parse(text: &str) -> Vec<NetDev> {
    text.lines()
        .filter_map(|line| {
            let (name, rest) = line.split_once(':')?;
            let f: Vec<&str> = rest.split_whitespace().collect();
            let n = |i| crate::field(&f, i);
            Some(NetDev {
                name: name.trim().to_string(),
                rx_bytes: n(0)?,
                rx_packets: n(1)?,
                tx_bytes: n(8)?,
                tx_packets: n(9)?,
            })
        })
        .collect()
}

/// This node's interfaces now.
pub fn read() -> std::io::Result<Vec<NetDev>> {
    Ok(parse(&std::fs::read_to_string("/proc/net/dev")?))
}

#[cfg(test)]
mod tests {
    #[test]
    fn interfaces_after_the_headers() {
        let text = "Inter-|   Receive                                                |  Transmit\n face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n    lo: 277855862789 11856732    0    0    0     0          0         0 277855862789 11856732    0    0    0     0       0          0\n  eth0:123 4 0 0 0 0 0 0 567 8 0 0 0 0 0 0\n";
        let all = super::parse(text);
        assert_eq!(all.len(), 2);
        assert_eq!(
            (all[0].name.as_str(), all[0].tx_bytes),
            ("lo", 277855862789)
        );
        assert_eq!((all[1].rx_bytes, all[1].tx_packets), (123, 8));
        assert!(super::read().unwrap().iter().any(|d| d.name == "lo"));
    }
}
