import Foundation
import Synchronization
import WDietCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tesseract's C API (capi.h), loaded at run time with dlopen/dlsym: the package links nothing of Tesseract, so it
/// builds on a machine without `libtesseract-dev` and only label scanning needs `libtesseract5` and the
/// `tesseract-ocr-eng`/`-deu` data at run time.
final class TesseractLibrary: @unchecked Sendable {
    typealias Handle = OpaquePointer
    let create: @convention(c) () -> Handle?
    let delete: @convention(c) (Handle) -> Void
    let initialise: @convention(c) (Handle, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let setPageSegMode: @convention(c) (Handle, Int32) -> Void
    let setVariable: @convention(c) (Handle, UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32
    let setImage: @convention(c) (Handle, UnsafePointer<UInt8>, Int32, Int32, Int32, Int32) -> Void
    let setSourceResolution: @convention(c) (Handle, Int32) -> Void
    let recognize: @convention(c) (Handle, OpaquePointer?) -> Int32
    let getIterator: @convention(c) (Handle) -> OpaquePointer?
    let clear: @convention(c) (Handle) -> Void
    let iteratorNext: @convention(c) (OpaquePointer, Int32) -> Int32
    let iteratorText: @convention(c) (OpaquePointer, Int32) -> UnsafeMutablePointer<CChar>?
    let iteratorConfidence: @convention(c) (OpaquePointer, Int32) -> Float
    let iteratorPage: @convention(c) (OpaquePointer) -> OpaquePointer?
    let boundingBox: @convention(c) (OpaquePointer, Int32, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> Int32
    let iteratorDelete: @convention(c) (OpaquePointer) -> Void
    let deleteText: @convention(c) (UnsafeMutablePointer<CChar>) -> Void

    /// The library, or why it cannot be loaded (one line).
    static let shared: Result<TesseractLibrary, LabelScanError> = load()

    private init(_ library: UnsafeMutableRawPointer) throws {
        func symbol<T>(_ name: String, _ type: T.Type) throws -> T {
            guard let pointer = dlsym(library, name) else {
                throw LabelScanError.ocrUnavailable(reason: "libtesseract.so.5 has no \(name)")
            }
            return unsafeBitCast(pointer, to: type)
        }
        create = try symbol("TessBaseAPICreate", (@convention(c) () -> Handle?).self)
        delete = try symbol("TessBaseAPIDelete", (@convention(c) (Handle) -> Void).self)
        initialise = try symbol("TessBaseAPIInit3", (@convention(c) (Handle, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32).self)
        setPageSegMode = try symbol("TessBaseAPISetPageSegMode", (@convention(c) (Handle, Int32) -> Void).self)
        setVariable = try symbol("TessBaseAPISetVariable", (@convention(c) (Handle, UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32).self)
        setImage = try symbol("TessBaseAPISetImage", (@convention(c) (Handle, UnsafePointer<UInt8>, Int32, Int32, Int32, Int32) -> Void).self)
        setSourceResolution = try symbol("TessBaseAPISetSourceResolution", (@convention(c) (Handle, Int32) -> Void).self)
        recognize = try symbol("TessBaseAPIRecognize", (@convention(c) (Handle, OpaquePointer?) -> Int32).self)
        getIterator = try symbol("TessBaseAPIGetIterator", (@convention(c) (Handle) -> OpaquePointer?).self)
        clear = try symbol("TessBaseAPIClear", (@convention(c) (Handle) -> Void).self)
        iteratorNext = try symbol("TessResultIteratorNext", (@convention(c) (OpaquePointer, Int32) -> Int32).self)
        iteratorText = try symbol("TessResultIteratorGetUTF8Text", (@convention(c) (OpaquePointer, Int32) -> UnsafeMutablePointer<CChar>?).self)
        iteratorConfidence = try symbol("TessResultIteratorConfidence", (@convention(c) (OpaquePointer, Int32) -> Float).self)
        iteratorPage = try symbol("TessResultIteratorGetPageIteratorConst", (@convention(c) (OpaquePointer) -> OpaquePointer?).self)
        boundingBox = try symbol(
            "TessPageIteratorBoundingBox",
            (@convention(c) (OpaquePointer, Int32, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> Int32).self
        )
        iteratorDelete = try symbol("TessResultIteratorDelete", (@convention(c) (OpaquePointer) -> Void).self)
        deleteText = try symbol("TessDeleteText", (@convention(c) (UnsafeMutablePointer<CChar>) -> Void).self)
    }

    private static func load() -> Result<TesseractLibrary, LabelScanError> {
        let names = ProcessInfo.processInfo.environment["WDIET_TESSERACT_LIBRARY"].map { [$0] } ?? ["libtesseract.so.5", "libtesseract.5.dylib"]
        // One thread per recognition: Debian's Tesseract is built with OpenMP, whose worker threads on a busy
        // 2-core machine made each scan 3× slower (P50 4.3 s → 1.4 s on the dev set). Scans run side by side
        // instead (the server's queue). An operator's own setting is kept; libgomp reads it when it is loaded.
        setenv("OMP_THREAD_LIMIT", "1", 0)
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                do {
                    return .success(try TesseractLibrary(handle))
                } catch let error as LabelScanError {
                    return .failure(error)
                } catch {
                    return .failure(.ocrUnavailable(reason: "\(error)"))
                }
            }
        }
        return .failure(.ocrUnavailable(reason: "Tesseract is not installed (libtesseract.so.5; Debian: apt-get install tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu)"))
    }
}

/// Page segmentation modes used here (Tesseract's `PageSegMode`).
enum TesseractPageMode: Int32, Sendable {
    case auto = 3
    case singleColumn = 4
    case singleBlock = 6
    case sparseText = 11
}

/// One initialised Tesseract engine (TessBaseAPI): made once, reused for every scan, used by one scan at a time.
final class TesseractEngine: @unchecked Sendable {
    private let library: TesseractLibrary
    private let handle: TesseractLibrary.Handle

    init(languages: String) throws(LabelScanError) {
        let library: TesseractLibrary
        switch TesseractLibrary.shared {
        case .success(let loaded): library = loaded
        case .failure(let error): throw error
        }
        guard let handle = library.create() else { throw .ocrUnavailable(reason: "TessBaseAPICreate failed") }
        let dataPath = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"]
        let status = dataPath.withOptionalCString { path in languages.withCString { library.initialise(handle, path, $0) } }
        guard status == 0 else {
            library.delete(handle)
            throw .ocrUnavailable(reason: "Tesseract could not load its \(languages) data (Debian: apt-get install tesseract-ocr-eng tesseract-ocr-deu)")
        }
        self.library = library
        self.handle = handle
        _ = library.setVariable(handle, "debug_file", "/dev/null")
    }

    deinit {
        library.delete(handle)
    }

    /// The words Tesseract recognises in a grayscale image (one byte per pixel), boxes in that image's pixels.
    func words(in image: GrayImage, mode: TesseractPageMode) -> [RecognizedWord] {
        library.setPageSegMode(handle, mode.rawValue)
        image.pixels.withUnsafeBufferPointer { buffer in
            library.setImage(handle, buffer.baseAddress!, Int32(image.width), Int32(image.height), 1, Int32(image.width))
        }
        library.setSourceResolution(handle, 300)
        defer { library.clear(handle) }
        guard library.recognize(handle, nil) == 0, let iterator = library.getIterator(handle) else { return [] }
        defer { library.iteratorDelete(iterator) }
        let wordLevel: Int32 = 3
        var words: [RecognizedWord] = []
        repeat {
            guard let textPointer = library.iteratorText(iterator, wordLevel) else { continue }
            let text = String(cString: textPointer)
            library.deleteText(textPointer)
            let confidence = Double(library.iteratorConfidence(iterator, wordLevel)) / 100
            var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
            guard let page = library.iteratorPage(iterator), library.boundingBox(page, wordLevel, &left, &top, &right, &bottom) != 0 else { continue }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            words.append(RecognizedWord(
                text: trimmed, x: Double(left), y: Double(top), width: Double(right - left), height: Double(bottom - top),
                confidence: max(0, min(1, confidence))
            ))
        } while library.iteratorNext(iterator, wordLevel) != 0
        return words
    }
}

/// Engines made once and handed to one scan at a time; a scan that finds none free makes another (the caller's queue
/// bounds how many run at once, so the pool never grows past that).
final class TesseractPool: Sendable {
    private let languages: String
    private let idle = Mutex<[TesseractEngine]>([])

    init(languages: String) {
        self.languages = languages
    }

    func withEngine<T>(_ body: (TesseractEngine) throws(LabelScanError) -> T) throws(LabelScanError) -> T {
        let engine: TesseractEngine
        if let idleEngine = idle.withLock({ $0.popLast() }) {
            engine = idleEngine
        } else {
            engine = try TesseractEngine(languages: languages)
        }
        defer { idle.withLock { $0.append(engine) } }
        return try body(engine)
    }
}

extension Optional where Wrapped == String {
    func withOptionalCString<T>(_ body: (UnsafePointer<CChar>?) -> T) -> T {
        switch self {
        case .some(let string): string.withCString(body)
        case .none: body(nil)
        }
    }
}
