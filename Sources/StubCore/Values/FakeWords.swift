/// The lists `{{fake.…}}` draws from, written for stubd. Plain ASCII with no quotes or
/// backslashes, so a value is safe in a JSON string or a header; names are letters only, so an
/// email address built from two of them is valid as it stands.
///
/// Changing a list changes what every seed gives: tests that pin a seeded value would notice.
enum FakeWords {
    static let firstNames = [
        "Ada", "Alice", "Amir", "Anna", "Ben", "Carla", "Chen", "Clara", "Daniel", "Dana",
        "Elena", "Emil", "Erin", "Felix", "Grace", "Hana", "Hugo", "Ines", "Ivan", "Jonas",
        "Julia", "Kai", "Kenji", "Lara", "Leo", "Lucia", "Maya", "Marco", "Mia", "Nadia",
        "Nina", "Noah", "Omar", "Oskar", "Paula", "Priya", "Rosa", "Sam", "Sara", "Tomas",
        "Uma", "Victor", "Wanda", "Yusuf", "Zoe",
    ]

    static let lastNames = [
        "Abbott", "Baker", "Becker", "Brandt", "Carter", "Castro", "Dalton", "Ellis", "Fischer", "Foster",
        "Garcia", "Grant", "Hale", "Holt", "Ibsen", "Jensen", "Keller", "Khan", "Larsen", "Lopez",
        "Marsh", "Meyer", "Moreau", "Nakamura", "Novak", "Olsen", "Park", "Patel", "Quinn", "Reyes",
        "Rossi", "Santos", "Schmidt", "Silva", "Tanaka", "Turner", "Vidal", "Walsh", "Weber", "Young",
    ]

    /// The second-level domains RFC 2606 reserves for documentation.
    static let emailDomains = ["example.com", "example.org", "example.net"]

    static let companyStems = [
        "Amberline", "Bluefen", "Brightfield", "Cedarpoint", "Cloudmere", "Copperleaf", "Driftwood", "Eastbrook",
        "Fernhill", "Foxglove", "Goldcrest", "Granite", "Harbor", "Ironbark", "Juniper", "Kestrel",
        "Lakeshore", "Lumen", "Maplestone", "Meridian", "Northgate", "Oakridge", "Pinecone", "Quarry",
        "Redwater", "Silverline", "Stonebridge", "Sunpeak", "Tidewell", "Vantage", "Westmoor", "Willowby",
    ]

    static let companySuffixes = [
        "Labs", "Works", "Systems", "Partners", "Group", "Supply", "Studio", "Logistics",
        "Foods", "Analytics", "Holdings", "Industries", "Digital", "Consulting", "Networks", "Trading",
    ]

    static let cities = [
        "Ashford", "Bayview", "Brookdale", "Cedar Falls", "Clearwater", "Eastport", "Elmsworth", "Fairhaven",
        "Glenmoor", "Greenfield", "Harborview", "Highmont", "Kingsbridge", "Lakeside", "Maplewood", "Millbrook",
        "Northfield", "Oakhurst", "Pinecrest", "Redcliff", "Riverton", "Rosedale", "Sandport", "Silverton",
        "Southbay", "Springvale", "Stonehaven", "Summerfield", "Westbury", "Willowdale",
    ]

    static let words = [
        "anchor", "apple", "basket", "bridge", "candle", "canyon", "cloud", "copper", "desert", "feather",
        "forest", "garden", "harbor", "island", "jacket", "kettle", "ladder", "lantern", "meadow", "mirror",
        "needle", "orbit", "pebble", "pepper", "planet", "pocket", "river", "saddle", "signal", "silver",
        "spiral", "summit", "thunder", "ticket", "timber", "tunnel", "velvet", "violet", "window", "winter",
    ]
}
